package cp.cli;

import cp.worker.EmbeddedTemporal;
import cp.worker.SearchAttributeRegistrar;
import cp.worker.PlaneConfig;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The embedded Temporal service on a TCP port, for separate worker and client processes; on
 * 127.0.0.1 unless {@code --bind} says otherwise, since it has no authentication.
 */
@Command(name = "dev-server", mixinStandardHelpOptions = true,
    description = "Run the embedded Temporal service on a port (in memory: stopping it loses every workflow;"
        + " the ledgers on disk stay).")
final class DevServerCommand extends CliCommand implements java.util.concurrent.Callable<Integer> {
  @Option(names = "--port", defaultValue = "7233", description = "TCP port. Default: ${DEFAULT-VALUE}.")
  int port;

  @Option(names = "--bind", defaultValue = "127.0.0.1",
      description = "Address to listen on (0.0.0.0 for all interfaces; the service has no authentication)."
          + " Default: ${DEFAULT-VALUE}.")
  String bind;

  @Override
  public Integer call() throws Exception {
    checkPort(port);
    InetAddress address = bindAddress(bind);
    EmbeddedTemporal server;
    try {
      server = EmbeddedTemporal.onAddress(new InetSocketAddress(address, port));
    } catch (RuntimeException e) {
      throw cannotServe("port " + port + " of " + bind, Cpctl.innermostMessage(e));
    }
    String namespace = env().getOrDefault("TEMPORAL_NAMESPACE", PlaneConfig.DEFAULT_NAMESPACE);
    SearchAttributeRegistrar.ensure(server.operator(), namespace);
    CountDownLatch stop = closeOnShutdown("dev-server-shutdown", server::close);
    String host = address.isAnyLocalAddress() || address.isLoopbackAddress() ? "localhost" : server.target()
        .substring(0, server.target().lastIndexOf(':'));
    out().println("Temporal dev server (embedded, in memory) listening on " + bind + ":" + port
        + (address.isLoopbackAddress() ? " (this machine only; --bind 0.0.0.0 for every interface)" : "")
        + ", namespace " + namespace + ". Use TEMPORAL_ADDRESS=" + host + ":" + port + ". It has no visibility"
        + " store: 'temporal workflow list' does not work against it; use 'cpctl sessions' and 'cpctl show'."
        + " Ctrl-C stops it.");
    out().flush();
    stop.await();
    return Cpctl.OK;
  }

  /** {@code --bind}: an IP address or a host name of this machine, resolved once. */
  static InetAddress bindAddress(String bind) {
    try {
      return InetAddress.getByName(bind.strip());
    } catch (UnknownHostException | RuntimeException e) {
      throw new IllegalArgumentException("--bind '" + bind + "' is not an address or a known host name"
          + " (e.g. 127.0.0.1, or 0.0.0.0 for every interface)");
    }
  }
}
