package cp.cli;

import cp.worker.ConfigException;
import cp.worker.codec.AesGcmPayloadCodec;
import cp.worker.codec.CodecServer;
import cp.worker.codec.PayloadKey;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Serves Temporal's remote codec protocol with the plane's payload key, for the Web UI and the CLI. */
@Command(name = "codec-server", mixinStandardHelpOptions = true,
    description = {"Serve POST /encode and /decode (Temporal's remote codec protocol) with CP_PAYLOAD_KEY, so the"
        + " Temporal Web UI (TEMPORAL_CODEC_ENDPOINT) and CLI (--codec-endpoint) show encrypted payloads.",
        "It decrypts for anyone who can reach it: it listens on 127.0.0.1 unless --bind says otherwise."})
final class CodecServerCommand extends CliCommand implements java.util.concurrent.Callable<Integer> {
  @Option(names = "--port", defaultValue = "8081", description = "TCP port. Default: ${DEFAULT-VALUE}.")
  int port;

  @Option(names = "--origin", defaultValue = "http://localhost:8080", split = ",",
      description = "Web UI origin(s) browsers may call from (repeat or comma-separate). Default: ${DEFAULT-VALUE}.")
  List<String> origins;

  @Option(names = "--bind", defaultValue = "127.0.0.1",
      description = "Address to listen on (0.0.0.0 for all interfaces). Default: ${DEFAULT-VALUE}.")
  String bind;

  @Override
  public Integer call() throws Exception {
    PayloadKey key = PayloadKey.fromEnv(env()).orElseThrow(() -> new ConfigException(PayloadKey.VARIABLE,
        "codec-server needs " + PayloadKey.VARIABLE + ", the key the plane's workers encrypt payloads with"
            + " (base64 of 32 bytes); it is not set"));
    checkPort(port);
    List<String> allowed = new ArrayList<>();
    for (String o : origins) {
      allowed.add(origin(o));
    }
    CodecServer server;
    try {
      server = CodecServer.start(new InetSocketAddress(bind, port), allowed, new AesGcmPayloadCodec(key));
    } catch (Exception e) {
      throw cannotServe(bind + ":" + port, Cpctl.oneLine(e));
    }
    CountDownLatch stop = closeOnShutdown("codec-server-shutdown", server::close);
    String host = bind.equals("0.0.0.0") || bind.equals("127.0.0.1") ? "localhost" : bind;
    String url = "http://" + host + ":" + server.port();
    out().println("Codec server for payload key id " + key.id() + " listening on " + bind + ":" + server.port()
        + ", CORS origin " + String.join(", ", allowed) + ". Web UI: TEMPORAL_CODEC_ENDPOINT=" + url
        + "; CLI: --codec-endpoint " + url + ". Ctrl-C stops it.");
    out().flush();
    stop.await();
    return Cpctl.OK;
  }

  /** An origin is scheme://host[:port] with no path; a trailing slash is dropped. */
  static String origin(String raw) {
    String o = raw.strip();
    if (o.endsWith("/")) {
      o = o.substring(0, o.length() - 1);
    }
    URI u;
    try {
      u = URI.create(o);
    } catch (IllegalArgumentException e) {
      u = null;
    }
    if (u == null || u.getScheme() == null || u.getHost() == null
        || !(u.getScheme().toLowerCase(Locale.ROOT).equals("http") || u.getScheme().toLowerCase(Locale.ROOT)
            .equals("https"))
        || (u.getRawPath() != null && !u.getRawPath().isEmpty()) || u.getRawQuery() != null || u.getUserInfo() != null) {
      throw new IllegalArgumentException("--origin '" + raw + "' is not an origin like http://localhost:8080"
          + " (scheme, host and port only: the address the Web UI is opened at)");
    }
    return o;
  }
}
