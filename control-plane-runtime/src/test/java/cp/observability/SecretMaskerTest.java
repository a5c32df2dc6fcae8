package cp.observability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Issue 20 §1 "Secrets in part": a configured key is masked whole, in part and encoded; common secret patterns always. */
class SecretMaskerTest {
  static final String KEY = "sk-ant-api03-Zq8Xv2LmN4pR7tY1wB6cD9eF3gH5jK0sU2iO8aQ-xyzAA";
  static final String HEX_KEY = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
  private final SecretMasker masker = new SecretMasker().register("ANTHROPIC_API_KEY", KEY)
      .register("CP_LEDGER_HMAC_KEY", HEX_KEY).register("CP_LEDGER_PASSWORD", "p@ss/w:rd+1234");

  private void assertMasked(String text, String secretPart) {
    String out = masker.mask(text);
    assertFalse(out.contains(secretPart), out);
    assertTrue(out.contains("[masked:"), out);
    assertEquals(out, masker.mask(out), "masking is idempotent");
  }

  @Test
  void theWholeKey_theKeyWithoutItsPrefix_itsLast12_itsFirst10AfterThePrefix() {
    assertMasked("invalid x-api-key: " + KEY, KEY.substring(7));
    String noPrefix = KEY.substring("sk-ant-api03-".length());
    assertMasked("key " + noPrefix + " is invalid", noPrefix.substring(0, 8));
    String last12 = KEY.substring(KEY.length() - 12);
    assertMasked("your key ending in " + last12 + " was revoked", last12);
    assertMasked("key starting " + noPrefix.substring(0, 10) + "… rejected", noPrefix.substring(0, 10));
    // A whole key of a known kind is masked by its pattern, before its configured value is looked at.
    assertEquals("invalid x-api-key: [masked:anthropic-key]", masker.mask("invalid x-api-key: " + KEY));
    assertEquals("key [masked:ANTHROPIC_API_KEY] is invalid", masker.mask("key " + noPrefix + " is invalid"));
  }

  @Test
  void base64OfTheKey_andOfUserColonKeyAsInBasicAuth_andTheUrlEncodedPassword() {
    String b64 = Base64.getEncoder().encodeToString(KEY.getBytes(StandardCharsets.UTF_8));
    assertMasked("echo: " + b64, b64.substring(4, 40));
    for (String user : new String[] {"u", "us", "usr", "user:"}) {
      String basic = Base64.getEncoder().encodeToString((user + ":" + KEY).getBytes(StandardCharsets.UTF_8));
      String out = masker.mask("Authorization: Basic " + basic);
      assertFalse(out.contains(basic.substring(8, 60)), user + ": " + out);
    }
    String urlSafe = Base64.getUrlEncoder().encodeToString(("x" + KEY).getBytes(StandardCharsets.UTF_8));
    assertFalse(masker.mask(urlSafe).contains(urlSafe.substring(8, 50)), masker.mask(urlSafe));
    String enc = URLEncoder.encode("p@ss/w:rd+1234", StandardCharsets.UTF_8);
    assertMasked("jdbc:postgresql://db/x?password=" + enc, enc.substring(0, 10));
    assertMasked("password was p@ss/w:rd+1234", "p@ss/w:rd");
  }

  @Test
  void fragmentsShorterThanTheMinimum_areLeftAlone() {
    String seven = KEY.substring(20, 27);
    assertEquals("part " + seven + " only", masker.mask("part " + seven + " only"));
    String eight = KEY.substring(20, 28);
    assertEquals("part [masked:ANTHROPIC_API_KEY] only", masker.mask("part " + eight + " only"));
  }

  @Test
  void aHexSecret_needs12Digits_soAChainHashSharing8DigitsWithItStaysWhole() {
    String hash = "0000" + HEX_KEY.substring(10, 18) + "ffffffffffffffffffffffffffffffff";
    assertEquals(hash, masker.mask(hash));
    assertMasked("key " + HEX_KEY.substring(10, 22), HEX_KEY.substring(10, 22));
  }

  @Test
  void aSecretShorterThan8Characters_isNotMaskedByValue() {
    SecretMasker m = new SecretMasker().register("CP_LEDGER_PASSWORD", "cp");
    assertEquals("cpctl copies cp files", m.mask("cpctl copies cp files"));
    assertEquals(0, m.registered());
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
      "sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123",
      "sk-AbCdEfGhIjKlMnOpQrStUvWx",
      "AKIAIOSFODNN7EXAMPLE",
      "ghp_AbCdEfGhIjKlMnOpQrStUvWxYz012345",
      "github_pat_11AbCdEfGhIjKlMnOpQrStUv_wxyz",
      "xoxb-1234567890-abcdefghij",
      "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
      "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----",
      "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC (truncated"})
  void commonSecretPatterns_areMaskedWithoutBeingConfigured(String secret) {
    String out = new SecretMasker().mask("the file says: " + secret + " (end)");
    assertTrue(out.startsWith("the file says: [masked:"), out);
    assertFalse(out.contains(secret.substring(secret.length() - 8)), out);
  }

  @Test
  void bearerKeepsItsScheme_andOrdinaryTextIsLeftAlone() {
    assertEquals("Authorization: Bearer [masked:bearer-token]",
        new SecretMasker().mask("Authorization: Bearer abcDEF123456._-~+/="));
    for (String plain : new String[] {"pip install scikit-learn (sk-learn)", "task-1234 done", "ASIA is big",
        "the bearer of bad news", "eyJ alone", "a ghp_ prefix alone", "WO-870083d1-0001-01 LED-f6b451248dd0113f"}) {
      assertEquals(plain, new SecretMasker().mask(plain));
    }
  }

  @Test
  void json_masksTextValues_reportsTheirPointerAndUnmaskedText_andReturnsTheSameNodeWhenClean() throws Exception {
    ObjectMapper om = new ObjectMapper();
    JsonNode clean = om.readTree("{\"a\":\"hello\",\"n\":3,\"l\":[\"x\"]}");
    assertSame(clean, masker.mask(clean, (p, v) -> { }));
    JsonNode dirty = om.readTree("{\"response\":{\"error\":\"bad key " + KEY.substring(13, 30) + "\"},"
        + "\"lines\":[\"ok\",\"AKIAIOSFODNN7EXAMPLE\"],\"a/b\":\"sk-AbCdEfGhIjKlMnOpQrStUvWx\"}");
    Map<String, String> seen = new LinkedHashMap<>();
    JsonNode out = masker.mask(dirty, seen::put);
    assertEquals("bad key [masked:ANTHROPIC_API_KEY]", out.at("/response/error").asText());
    assertEquals("[masked:aws-access-key]", out.at("/lines/1").asText());
    assertEquals(Map.of("/response/error", "bad key " + KEY.substring(13, 30), "/lines/1", "AKIAIOSFODNN7EXAMPLE",
        "/a~1b", "sk-AbCdEfGhIjKlMnOpQrStUvWx"), seen);
    assertTrue(dirty.at("/response/error").asText().contains(KEY.substring(13, 30)), "the input is not changed");
  }

  @Test
  void fromEnv_registersKnownVariables_anySecretSuffix_andTheUrlPassword() {
    SecretMasker m = SecretMasker.fromEnv(Map.of("ANTHROPIC_API_KEY", KEY, "MCP_GITHUB_TOKEN", "tok-1234567890abcdef",
        "CP_LEDGER_URL", "jdbc:postgresql://db:5432/l?user=cp&password=Hunter2Hunter2", "CP_HOME", "/data/cp-home-xyz"));
    assertEquals(3, m.registered());
    assertEquals("[masked:MCP_GITHUB_TOKEN] [masked:CP_LEDGER_URL password] /data/cp-home-xyz",
        m.mask("tok-1234567890abcdef Hunter2Hunter2 /data/cp-home-xyz"));
  }
}
