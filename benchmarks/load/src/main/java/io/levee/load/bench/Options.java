package io.levee.load.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Command-line options of the overload and overhead runs. */
final class Options {
  boolean quick;
  int runs = 3;

  /** Warm-up seconds of the overhead benchmark before its measured window; 0: its default. */
  int warm;

  List<String> contenders = new ArrayList<>();
  List<String> scenarios = new ArrayList<>();
  double capacity;
  int staticLimit;
  double rate = 300;
  String agent;

  /** Rules for the contender "levee" instead of the system rule with its defaults. */
  Path leveeRules;

  String appCpus = "";
  Path out = Path.of("benchmarks/load/target/overload");
  Path img = Path.of("docs/img");
  String command = "";

  static Options parse(String[] args) {
    Options o = new Options();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      switch (a) {
        case "--quick" -> o.quick = true;
        case "--runs" -> o.runs = Integer.parseInt(args[++i]);
        case "--warm" -> o.warm = Integer.parseInt(args[++i]);
        case "--contender" -> o.contenders.addAll(Arrays.asList(args[++i].split(",")));
        case "--scenario" -> o.scenarios.addAll(Arrays.asList(args[++i].split(",")));
        case "--capacity" -> o.capacity = Double.parseDouble(args[++i]);
        case "--static-limit" -> o.staticLimit = Integer.parseInt(args[++i]);
        case "--rate" -> o.rate = Double.parseDouble(args[++i]);
        case "--agent" -> o.agent = args[++i];
        case "--levee-rules" -> o.leveeRules = Path.of(args[++i]);
        case "--app-cpus" -> o.appCpus = args[++i];
        case "--out" -> o.out = Path.of(args[++i]);
        case "--img" -> o.img = Path.of(args[++i]);
        case "--command" -> o.command = args[++i];
        default -> throw new IllegalArgumentException("unknown option " + a);
      }
    }
    return o;
  }
}
