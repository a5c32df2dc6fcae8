package cp.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import cp.worker.PlaneConfig;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 20: against a shared service, chat's banner said "provider offline" (this process's own
 * setting, without a key) while the worker it talked to used Anthropic. The banner names a provider
 * only where chat knows it: the embedded plane's.
 */
class ChatBannerTest {
  @TempDir Path home;

  @Test
  void sharedService_doesNotClaimThisProcesssProvider_andSaysTheWorkersDecide() {
    PlaneConfig shared = PlaneConfig.fromEnv(Map.of("CP_HOME", home.toString(), "TEMPORAL_ADDRESS", "127.0.0.1:7233"));
    String banner = ChatCommand.banner(shared, "ADMIN", "SES-1a2b3c4d");

    assertFalse(banner.contains("offline"), banner);
    assertTrue(banner.contains("provider: the workers' own"), banner);
    assertTrue(banner.contains("Temporal 127.0.0.1:7233"), banner);
  }

  @Test
  void embedded_namesTheProviderThisProcessRuns() {
    PlaneConfig embedded = PlaneConfig.fromEnv(Map.of("CP_HOME", home.toString(), "CP_PROVIDER", "offline"));
    String banner = ChatCommand.banner(embedded, "ADMIN", "SES-1a2b3c4d");

    assertTrue(banner.contains("provider offline") && banner.contains("embedded in-process"), banner);
  }
}
