package cp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code cpctl codec-server} refuses to start without a usable key; {@code cpctl replay} needs the key too. */
class CodecServerCommandTest {
  /** The public test key of src/test/resources/histories/encrypted-turn.json (bytes 0..31). */
  static final String TEST_KEY = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=";

  static CpctlRunner.Result cpctl(Map<String, String> env, String... args) {
    return CpctlRunner.run(env, args);
  }

  @Test
  void withoutCpPayloadKey_exits2WithOneLine() {
    CpctlRunner.Result r = cpctl(Map.of(), "codec-server", "--port", "0");
    assertEquals(Cpctl.BAD_INPUT, r.code());
    assertEquals("cpctl: codec-server needs CP_PAYLOAD_KEY, the key the plane's workers encrypt payloads with (base64"
        + " of 32 bytes); it is not set", r.err().strip());
    assertEquals("", r.out());
  }

  @Test
  void withABadKey_exits2NamingTheVariable() {
    CpctlRunner.Result r = cpctl(Map.of("CP_PAYLOAD_KEY", Base64.getEncoder().encodeToString(new byte[31])), "codec-server");
    assertEquals(Cpctl.BAD_INPUT, r.code());
    assertEquals(1, r.err().strip().lines().count(), r.err());
    assertTrue(r.err().startsWith("cpctl: CP_PAYLOAD_KEY decodes to 31 bytes"), r.err());
  }

  @Test
  void badOriginOrPort_exits2() {
    CpctlRunner.Result r = cpctl(Map.of("CP_PAYLOAD_KEY", TEST_KEY), "codec-server", "--origin", "localhost:8080");
    assertEquals(Cpctl.BAD_INPUT, r.code());
    assertTrue(r.err().contains("--origin 'localhost:8080' is not an origin"), r.err());
    assertEquals(Cpctl.BAD_INPUT, cpctl(Map.of("CP_PAYLOAD_KEY", TEST_KEY), "codec-server", "--port", "70000").code());
  }

  @Test
  void origin_isNormalized() {
    assertEquals("http://localhost:8080", CodecServerCommand.origin(" http://localhost:8080/ "));
    assertEquals("https://ui.example.com", CodecServerCommand.origin("https://ui.example.com"));
    assertThrows(IllegalArgumentException.class, () -> CodecServerCommand.origin("http://localhost:8080/ui"));
    assertThrows(IllegalArgumentException.class, () -> CodecServerCommand.origin("ftp://x"));
  }

  @Test
  void replayOfAnEncryptedHistory_needsTheKey() {
    String file = "src/test/resources/histories/encrypted-turn.json";
    CpctlRunner.Result ok = cpctl(Map.of("CP_PAYLOAD_KEY", TEST_KEY), "replay", file);
    assertEquals(Cpctl.OK, ok.code(), ok.out() + ok.err());
    assertTrue(ok.out().startsWith("OK "), ok.out());

    CpctlRunner.Result noKey = cpctl(Map.of(), "replay", file);
    assertEquals(Cpctl.FAILED, noKey.code());
    assertTrue(noKey.out().contains("but CP_PAYLOAD_KEY is not set"), noKey.out());
  }
}
