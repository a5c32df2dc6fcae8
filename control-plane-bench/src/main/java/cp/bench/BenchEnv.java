package cp.bench;

import java.net.URI;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The environment of a benchmark plane: the caller's {@code CP_*} settings (ledger durability,
 * timeouts, payload key) with the plane root, the provider and the task queue set by the
 * benchmark. Temporal and provider variables of the caller are dropped: the benchmark always
 * runs the embedded service against its own fake provider.
 */
final class BenchEnv {
  /** Set by the benchmark for each plane; the caller's values would point elsewhere. */
  static final Set<String> OWNED = Set.of("CP_HOME", "CP_PROVIDER", "CP_MODEL", "CP_TASK_QUEUE");
  /** Never a real key: the fake provider accepts anything. */
  static final String FAKE_KEY = "bench-fake-key";

  private BenchEnv() {}

  static Map<String, String> of(Map<String, String> caller, Path home, URI provider, String taskQueue) {
    Map<String, String> env = new HashMap<>();
    caller.forEach((k, v) -> {
      if (k.startsWith("CP_") && !OWNED.contains(k)) {
        env.put(k, v);
      }
    });
    env.put("CP_HOME", home.toAbsolutePath().toString());
    env.put("CP_PROVIDER", "anthropic");
    env.put("ANTHROPIC_API_KEY", FAKE_KEY);
    env.put("ANTHROPIC_BASE_URL", provider.toString());
    env.put("CP_TASK_QUEUE", taskQueue);
    return env;
  }

  /** {@code env} with one more variable. */
  static Map<String, String> with(Map<String, String> env, String key, String value) {
    Map<String, String> copy = new HashMap<>(env);
    copy.put(key, value);
    return copy;
  }
}
