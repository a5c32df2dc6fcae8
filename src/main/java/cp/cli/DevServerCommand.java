package cp.cli;

import cp.worker.EmbeddedTemporal;
import cp.worker.SearchAttributeRegistrar;
import cp.worker.PlaneConfig;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The embedded Temporal service on a TCP port, for separate worker and client processes. */
@Command(name = "dev-server", mixinStandardHelpOptions = true,
    description = "Run the embedded Temporal service on a port (in memory: stopping it loses every workflow;"
        + " the ledgers on disk stay).")
final class DevServerCommand extends CliCommand implements java.util.concurrent.Callable<Integer> {
  @Option(names = "--port", defaultValue = "7233", description = "TCP port (all interfaces). Default: ${DEFAULT-VALUE}.")
  int port;

  @Override
  public Integer call() throws Exception {
    checkPort(port);
    EmbeddedTemporal server;
    try {
      server = EmbeddedTemporal.onPort(port);
    } catch (RuntimeException e) {
      throw cannotServe("port " + port, Cpctl.innermostMessage(e));
    }
    String namespace = env().getOrDefault("TEMPORAL_NAMESPACE", PlaneConfig.DEFAULT_NAMESPACE);
    SearchAttributeRegistrar.ensure(server.operator(), namespace);
    CountDownLatch stop = closeOnShutdown("dev-server-shutdown", server::close);
    out().println("Temporal dev server (embedded, in memory) listening on 0.0.0.0:" + port + ", namespace "
        + namespace + ". Use TEMPORAL_ADDRESS=localhost:" + port + ". Ctrl-C stops it.");
    out().flush();
    stop.await();
    return Cpctl.OK;
  }
}
