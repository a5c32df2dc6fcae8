package cp.gateway.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import cp.gateway.ProviderSettings;
import cp.gateway.Secret;
import java.io.FileInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import okhttp3.Headers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The provider client's sockets are channel-backed (so an idle plain connection can be looked
 * at without blocking); HTTPS runs on top of them as before: a TLS server with a certificate
 * made here by the JDK's keytool, several calls, one connection reused for all.
 */
class TlsConnectionTest {
  static final char[] PASSWORD = "changeit".toCharArray();
  static final int CALLS = 3;

  @TempDir Path dir;

  @Test
  void httpsCallsWork_andReuseOneConnection() throws Exception {
    Path store = dir.resolve("server.p12");
    Process keytool = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
        "-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=localhost",
        "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-validity", "2", "-storetype", "PKCS12",
        "-keystore", store.toString(), "-storepass", new String(PASSWORD)))
        .redirectErrorStream(true).start();
    byte[] out = keytool.getInputStream().readAllBytes();
    assertEquals(0, keytool.waitFor(), () -> new String(out, StandardCharsets.UTF_8));
    KeyStore ks = KeyStore.getInstance("PKCS12");
    try (InputStream in = new FileInputStream(store.toFile())) {
      ks.load(in, PASSWORD);
    }
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(ks, PASSWORD);
    SSLContext serverContext = SSLContext.getInstance("TLS");
    serverContext.init(kmf.getKeyManagers(), null, null);

    String[] keys = {"javax.net.ssl.trustStore", "javax.net.ssl.trustStorePassword", "javax.net.ssl.trustStoreType"};
    String[] saved = new String[keys.length];
    for (int i = 0; i < keys.length; i++) {
      saved[i] = System.getProperty(keys[i]);
    }
    System.setProperty(keys[0], store.toString());
    System.setProperty(keys[1], new String(PASSWORD));
    System.setProperty(keys[2], "PKCS12");
    try (MockWebServer server = new MockWebServer()) {
      server.useHttps(serverContext.getSocketFactory());
      server.start(java.net.InetAddress.getLoopbackAddress(), 0);
      for (int i = 0; i < CALLS; i++) {
        server.enqueue(new MockResponse.Builder().code(200).body("{\"ok\":true}").build());
      }
      ProviderHttpClient http = new ProviderHttpClient("anthropic", ProviderSettings.anthropic(Secret.of("k"))
          .withBaseUrl(server.url("/").uri()).withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(5)));
      for (int i = 0; i < CALLS; i++) {
        assertEquals("{\"ok\":true}", http.postJson(server.url("/v1/messages"), Headers.of(), "{}".getBytes(
            StandardCharsets.UTF_8)).body());
      }
      for (int i = 0; i < CALLS; i++) {
        assertEquals(0, server.takeRequest(5, TimeUnit.SECONDS).getConnectionIndex(), "one TLS connection for all");
      }
    } finally {
      for (int i = 0; i < keys.length; i++) {
        if (saved[i] == null) {
          System.clearProperty(keys[i]);
        } else {
          System.setProperty(keys[i], saved[i]);
        }
      }
    }
  }
}
