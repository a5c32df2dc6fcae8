package cp.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.model.Json;
import cp.observability.SecretMasker;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 20 §1 "Secrets in part", the ledger sink: an EXCHANGE whose provider error echoes the API
 * key in part (without its prefix, its last 12 characters, base64 of it) and a TOOL_CALL whose
 * result quotes an {@code sk-ant-…} line reach neither the JSONL file nor the PostgreSQL rows; the
 * chain still verifies, and the entry keeps the SHA-256 of each unmasked value.
 */
class MaskingLedgerStoreTest {
  static final String KEY = "sk-ant-api03-Q7wErTyUiOpAsDfGhJkLzXcVbNm1234567890-abcdefAA";
  static final String FILE_KEY = "sk-ant-api03-FromAFileNotConfigured0123456789abcdef";
  @TempDir Path home;

  @ParameterizedTest
  @ValueSource(strings = {"jsonl", "postgresql"})
  void partialKeyEchoes_andASecretReadByATool_areStoredMasked_andTheChainVerifies(String store) throws Exception {
    LedgerDatabase db = store.equals("postgresql") ? TestPostgres.freshDatabase() : null;
    LedgerSettings settings = LedgerSettings.all(Durability.FSYNC_EACH).withDatabase(db);
    SecretMasker masker = new SecretMasker().register("ANTHROPIC_API_KEY", KEY);
    String noPrefix = KEY.substring("sk-ant-".length());
    String last12 = KEY.substring(KEY.length() - 12);
    String b64 = Base64.getEncoder().encodeToString(KEY.getBytes(StandardCharsets.UTF_8));
    String error = "authentication_error: key " + noPrefix + " (…" + last12 + ") invalid; header was " + b64;
    String toolOutput = "line 1\nANTHROPIC_API_KEY=" + FILE_KEY + "\nline 3";

    try (Ledgers ledgers = new Ledgers(new PlaneLayout(home), settings, masker)) {
      ObjectNode exchange = Json.object().put("session_id", "SES-00000001");
      exchange.putObject("response").put("error", error).put("status", 401);
      ledgers.hot().write(LedgerEntry.builder("EXCHANGE").reason(error).metadata(exchange).build());
      ObjectNode tool = Json.object().put("tool", "read_file").put("output", toolOutput);
      ledgers.ho1().write(LedgerEntry.builder("TOOL_CALL").metadata(tool).build());

      for (LedgerStream l : List.of(ledgers.hot(), ledgers.ho1())) {
        assertTrue(l.verify().ok(), l.location() + ": " + l.verify().reason());
      }
      LedgerEntry ex = ledgers.hot().byEventType("EXCHANGE").get(0);
      assertEquals("sha256:" + sha256(error), ex.metaTextAt("/masked/~1metadata~1response~1error"), ex.toString());
      assertEquals("sha256:" + sha256(error), ex.metaTextAt("/masked/~1reason"));
      assertTrue(ex.metaTextAt("/response/error").startsWith("authentication_error: key [masked:ANTHROPIC_API_KEY]"),
          ex.toString());
      LedgerEntry tc = ledgers.ho1().byEventType("TOOL_CALL").get(0);
      assertEquals("line 1\nANTHROPIC_API_KEY=[masked:anthropic-key]\nline 3", tc.metaText("output"));
    }

    String stored = db == null ? readFiles(home) : readRows(db);
    assertFalse(stored.isEmpty());
    for (String secret : List.of(KEY, noPrefix.substring(0, 20), last12, b64.substring(8, 40), FILE_KEY.substring(7))) {
      assertFalse(stored.contains(secret), store + " holds '" + secret + "':\n" + stored);
    }
    assertTrue(stored.contains("[masked:ANTHROPIC_API_KEY]") && stored.contains("[masked:anthropic-key]"), stored);
  }

  private static String readFiles(Path root) throws Exception {
    StringBuilder sb = new StringBuilder();
    try (var files = Files.walk(root)) {
      for (Path p : files.filter(Files::isRegularFile).toList()) {
        sb.append(Files.readString(p, StandardCharsets.ISO_8859_1)).append('\n');
      }
    }
    return sb.toString();
  }

  private static String readRows(LedgerDatabase db) throws Exception {
    StringBuilder sb = new StringBuilder();
    try (Connection c = DriverManager.getConnection(db.url(), db.user(), db.password());
        Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT * FROM ledger_entry")) {
      while (rs.next()) {
        for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
          sb.append(rs.getString(i)).append(' ');
        }
        sb.append('\n');
      }
    }
    return sb.toString();
  }

  private static String sha256(String s) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
  }

  @org.junit.jupiter.api.Test
  void theWrapper_overridesEveryMethodOfTheStoreAndTheStream_defaultsIncluded() throws Exception {
    Class<?> stream = Class.forName(MaskingLedgerStore.class.getName() + "$MaskingStream");
    for (var pair : java.util.List.of(java.util.Map.entry(LedgerStore.class, (Class<?>) MaskingLedgerStore.class),
        java.util.Map.entry(LedgerStream.class, stream))) {
      for (java.lang.reflect.Method m : pair.getKey().getMethods()) {
        if (java.lang.reflect.Modifier.isStatic(m.getModifiers())) {
          continue;
        }
        java.lang.reflect.Method own = pair.getValue().getMethod(m.getName(), m.getParameterTypes());
        assertEquals(pair.getValue(), own.getDeclaringClass(), pair.getValue().getSimpleName() + " must override "
            + m.getName() + ": a store's own implementation of it would otherwise be bypassed");
      }
    }
  }
}
