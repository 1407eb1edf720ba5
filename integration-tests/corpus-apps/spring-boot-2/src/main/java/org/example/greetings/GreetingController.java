package org.example.greetings;

import java.util.List;
import org.springframework.core.env.Environment;
import org.springframework.data.domain.Sort;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.RestTemplate;

/**
 * Reads and writes greetings through JPA, and relays a read through RestTemplate to this same
 * application over HTTP. Answers carry no time, so that every run answers alike.
 */
@RestController
class GreetingController {
  private final GreetingRepository greetings;
  private final Environment environment;

  /** HttpURLConnection underneath, the client the agent protects. */
  private final RestTemplate http = new RestTemplate(new SimpleClientHttpRequestFactory());

  GreetingController(GreetingRepository greetings, Environment environment) {
    this.greetings = greetings;
    this.environment = environment;
  }

  @GetMapping("/greetings")
  List<Greeting> all() {
    return greetings.findAll(Sort.by("id"));
  }

  @GetMapping("/greetings/{id}")
  ResponseEntity<Greeting> one(@PathVariable("id") long id) {
    return greetings.findById(id).map(ResponseEntity::ok).orElse(ResponseEntity.notFound().build());
  }

  @PostMapping("/greetings")
  ResponseEntity<Greeting> add(@RequestParam("name") String name) {
    return ResponseEntity.status(HttpStatus.CREATED).body(greetings.save(new Greeting(name)));
  }

  /** A 404 from the other end is an answer to pass on, not a failure of this one. */
  @GetMapping("/relay/{id}")
  String relay(@PathVariable("id") long id) {
    String url =
        "http://127.0.0.1:" + environment.getProperty("local.server.port") + "/greetings/" + id;
    try {
      ResponseEntity<String> answer = http.getForEntity(url, String.class);
      return "relayed " + answer.getStatusCodeValue() + " " + answer.getBody();
    } catch (HttpClientErrorException e) {
      return "relayed " + e.getRawStatusCode();
    }
  }
}
