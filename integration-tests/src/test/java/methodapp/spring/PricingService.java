package methodapp.spring;

import methodapp.Gate;
import org.springframework.context.annotation.Scope;
import org.springframework.context.annotation.ScopedProxyMode;
import org.springframework.stereotype.Service;

/**
 * A Spring {@code @Service} that the context hands out behind a CGLIB subclass made at run time (a
 * scoped proxy of the target class, as {@code @RequestScope} or {@code @RefreshScope} beans are):
 * the proxy's {@code price} calls the target's.
 */
@Service
@Scope(proxyMode = ScopedProxyMode.TARGET_CLASS)
public class PricingService {
  public String price(String item) {
    Gate.enter();
    return "price of " + item;
  }
}
