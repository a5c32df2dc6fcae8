package cp.e2e;

import cp.gateway.ForwardingProvider;
import cp.gateway.OfflineProvider;
import cp.gateway.ProviderException;
import cp.gateway.ProviderReply;
import cp.model.PromptRequest;
import cp.model.TurnResult;
import cp.worker.PlaneFixture;
import cp.worker.PlaneRuntime;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.*;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReproProbeTest {
  @TempDir Path home;

  static final class Counting extends ForwardingProvider {
    final AtomicInteger calls = new AtomicInteger();
    Counting() { super(new OfflineProvider()); }
    @Override public ProviderReply send(PromptRequest r) throws ProviderException {
      calls.incrementAndGet();
      return super.send(r);
    }
  }

  @Test
  void probe() throws Exception {
    Counting p = new Counting();
    try (PlaneFixture plane = PlaneFixture.start(PlaneFixture.env(home, Map.of()), p, PlaneRuntime::builtinTools)) {
      String sid = plane.client.startSession("ADMIN");
      Path hot = home.resolve("HOT/ledger/governance.jsonl");
      // wait SESSION_START
      for (int i = 0; i < 100 && Files.size(hot) == 0; i++) Thread.sleep(50);
      Files.write(hot, "{\"not\":\"an entry\"}\n".getBytes(StandardCharsets.UTF_8), StandardOpenOption.APPEND);
      ExecutorService ex = Executors.newSingleThreadExecutor();
      long t0 = System.nanoTime();
      Future<TurnResult> f = ex.submit(() -> plane.client.turn(sid, "hello"));
      try {
        TurnResult r = f.get(60, TimeUnit.SECONDS);
        System.out.println("PROBE result after " + (System.nanoTime() - t0) / 1_000_000 + " ms: " + r);
      } catch (TimeoutException e) {
        System.out.println("PROBE turn timed out");
      }
      System.out.println("PROBE provider calls " + p.calls.get());
      Future<?> e = ex.submit(() -> plane.client.end(sid));
      try { System.out.println("PROBE end " + e.get(30, TimeUnit.SECONDS)); } catch (Exception x) { System.out.println("PROBE end failed " + x); }
      ex.shutdownNow();
    }
  }
}
