package cp.cli;

import static cp.cli.CliHarness.assertNoStackTrace;
import static cp.cli.CliHarness.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.model.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 11 item 8: the four kinds of tampering {@code cpctl ledger verify} used to accept, each
 * done to the files a real chat wrote, the way someone with write access to CP_HOME would, and
 * the keyed chain ({@code CP_LEDGER_HMAC_KEY}).
 */
class LedgerTamperCommandTest {
  static final String HOT = LedgerLines.HOT;
  static final String HO1 = LedgerLines.HO1;
  static final String HO2 = LedgerLines.HO2_ADMIN;
  /** A test key: 32 bytes as 64 hex digits. */
  static final String KEY = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
  static final String OTHER_KEY = "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100";

  @TempDir Path home;

  private Map<String, String> env() {
    return CliHarness.env(home);
  }

  private Map<String, String> keyed(String key) {
    Map<String, String> e = env();
    e.put("CP_LEDGER_HMAC_KEY", key);
    return e;
  }

  private List<String> lines(String rel) throws Exception {
    return new ArrayList<>(Files.readAllLines(home.resolve(rel), StandardCharsets.UTF_8));
  }

  private void write(String rel, List<String> lines) throws Exception {
    Files.writeString(home.resolve(rel), lines.isEmpty() ? "" : String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
  }

  private Path head(String rel) {
    return home.resolve(rel + ".head");
  }

  /**
   * A forger without the key: changes line {@code n}'s reason, recomputes SHA-256 for it and every
   * line after it (the documented unkeyed chain), and writes a matching {@code .head}.
   */
  private void editAndRehash(String rel, int n) throws Exception {
    List<String> in = lines(rel);
    List<String> out = new ArrayList<>(in.subList(0, n - 1));
    String prev = n == 1 ? "0".repeat(64) : Json.parse(in.get(n - 2)).get("hash").asText();
    for (int i = n - 1; i < in.size(); i++) {
      ObjectNode node = (ObjectNode) Json.parse(in.get(i));
      if (i == n - 1) {
        node.put("reason", "forged: " + node.path("reason").asText());
      }
      node.remove("hash");
      node.put("prev_hash", prev);
      prev = Json.sha256(Json.canonical(node));
      node.put("hash", prev);
      out.add(Json.write(node));
    }
    write(rel, out);
    Files.writeString(head(rel), "{\"entries\":" + out.size() + ",\"last_hash\":\"" + prev + "\"}\n");
  }

  private CliHarness.Run verify(Map<String, String> env) {
    return run(env, "ledger", "verify");
  }

  private static List<String> failLines(CliHarness.Run r, String rel) {
    return r.out().lines().filter(l -> l.startsWith("FAIL") && l.contains(rel)).toList();
  }

  // ------------------------------------------------ case 1: edit a line, re-hash the rest, rewrite .head

  @Test
  void editedLineWithTheRestReHashedAndHeadRewritten_isNamedByAHeadRecordedElsewhere() throws Exception {
    CliHarness.chat(env());
    editAndRehash(HO1, 2);
    var r = verify(env());
    assertEquals(Cpctl.FAILED, r.code(), r::describe);
    List<String> fail = failLines(r, HO1);
    assertEquals(1, fail.size(), r::describe);
    // The first head recorded after line 2 names it: HO2's WO_CHAIN_COMPLETE of turn 1.
    assertTrue(fail.get(0).matches(".*line \\d+ does not match its head recorded in (HOT|HO2/ADMIN) at LED-.*")
        && fail.get(0).contains("the ledger was rewritten"), r::describe);
    assertNoStackTrace(r);
  }

  @Test
  void editedHotLineWithTheRestReHashedAndHeadRewritten_isNamedByTheHeadRecordedInHo2() throws Exception {
    CliHarness.chat(env());
    editAndRehash(HOT, 2);
    var r = verify(env());
    assertEquals(Cpctl.FAILED, r.code(), r::describe);
    List<String> fail = failLines(r, HOT);
    assertEquals(1, fail.size(), r::describe);
    assertTrue(fail.get(0).contains("its head recorded in HO2/ADMIN at LED-"), r::describe);
  }

  @Test
  void keyedChain_editedLineReHashedWithoutTheKey_failsAtThatLine() throws Exception {
    CliHarness.chat(keyed(KEY));
    assertTrue(lines(HO1).stream().allMatch(l -> l.contains("\"chain\":\"hmac-sha256\"")), "every entry keyed");
    try (Stream<Path> all = Files.walk(home)) {
      for (Path p : all.filter(Files::isRegularFile).toList()) {
        assertFalse(Files.readString(p).contains(KEY), "the key is not stored with the ledgers: " + p);
      }
    }
    assertEquals(Cpctl.OK, verify(keyed(KEY)).code(), () -> verify(keyed(KEY)).describe());
    editAndRehash(HO1, 3);
    // Without the cross-checks: the HOT and HO2 ledgers that recorded HO1's head are gone too.
    Files.delete(home.resolve(HOT));
    Files.delete(head(HOT));
    var r = verify(keyed(KEY));
    assertEquals(Cpctl.FAILED, r.code(), r::describe);
    List<String> fail = failLines(r, HO1);
    assertTrue(fail.stream().anyMatch(l -> l.contains("line 3: hash mismatch") && l.contains("CP_LEDGER_HMAC_KEY")),
        r::describe);
  }

  @Test
  void keyedChain_withoutTheKey_saysSetTheKeyNotTampered_andWithAnotherKeySaysSo() throws Exception {
    CliHarness.chat(keyed(KEY));
    var none = verify(env());
    assertEquals(Cpctl.FAILED, none.code(), none::describe);
    List<String> key = none.out().lines().filter(l -> l.startsWith("KEY")).toList();
    assertEquals(3, key.size(), none::describe);
    assertTrue(key.stream().allMatch(l -> l.contains("keyed chain: set CP_LEDGER_HMAC_KEY to verify")), none::describe);
    assertFalse(none.out().contains("mismatch") || none.out().contains("tamper"), none::describe);

    var other = verify(keyed(OTHER_KEY));
    assertEquals(Cpctl.FAILED, other.code(), other::describe);
    assertTrue(other.out().lines().filter(l -> l.startsWith("KEY")).allMatch(l -> l.contains("another key")),
        other::describe);
    assertEquals(3, other.out().lines().filter(l -> l.startsWith("KEY")).count(), other::describe);
    assertFalse(other.out().contains(KEY) || other.out().contains(OTHER_KEY), "the key is never printed");

    // Repair without the key cannot tell damage from a keyed line, so it moves nothing.
    byte[] before = Files.readAllBytes(home.resolve(HOT));
    var repair = run(env(), "ledger", "repair", "--tier", "hot");
    CliHarness.assertOneLineError(repair, Cpctl.FAILED);
    assertTrue(repair.err().contains("cannot repair") && repair.err().contains("set CP_LEDGER_HMAC_KEY"),
        repair::describe);
    assertTrue(Arrays.equals(before, Files.readAllBytes(home.resolve(HOT))), "nothing moved or appended");

  }

  @Test
  void keyedChain_stripedOfItsKeyAndReHashedFromLineOne_failsWithTheKey() throws Exception {
    CliHarness.chat(keyed(KEY));
    List<String> in = lines(HO1);
    List<String> out = new ArrayList<>();
    String prev = "0".repeat(64);
    for (String line : in) {
      ObjectNode node = (ObjectNode) Json.parse(line);
      node.remove(List.of("hash", "chain", "key_id"));
      node.put("prev_hash", prev);
      prev = Json.sha256(Json.canonical(node));
      node.put("hash", prev);
      out.add(Json.write(node));
    }
    write(HO1, out);
    Files.writeString(head(HO1), "{\"entries\":" + out.size() + ",\"last_hash\":\"" + prev + "\"}\n");
    var r = verify(keyed(KEY));
    assertEquals(Cpctl.FAILED, r.code(), r::describe);
    assertTrue(failLines(r, HO1).stream().anyMatch(l -> l.contains("not keyed")), r::describe);
  }

  @Test
  void keyTurnedOnForAnExistingPlane_theNextChatAdoptsEveryLedgerItWrites() throws Exception {
    CliHarness.chat(env());
    var before = verify(keyed(KEY));
    assertEquals(Cpctl.FAILED, before.code(), before::describe);
    assertEquals(3, before.out().lines().filter(l -> l.startsWith("FAIL") && l.contains("not keyed")).count(),
        before::describe);
    CliHarness.chat(keyed(KEY));
    var after = verify(keyed(KEY));
    assertEquals(Cpctl.OK, after.code(), after::describe);
    for (String rel : List.of(HOT, HO1, HO2)) {
      assertEquals(1, lines(rel).stream().filter(l -> l.contains("\"event_type\":\"LEDGER_KEYED\"")).count(), rel);
    }
  }

  @Test
  void keyedChain_aKeyThatIsTooShort_isAConfigErrorNamingTheVariable() {
    var r = run(keyed(HexFormat.of().formatHex(new byte[16])), "ledger", "verify");
    CliHarness.assertOneLineError(r, Cpctl.BAD_INPUT);
    assertTrue(r.err().contains("CP_LEDGER_HMAC_KEY") && r.err().contains("too short"), r::describe);
    assertFalse(r.err().contains("00000000000000000000000000000000"), "the key is never printed");
  }

  @Test
  void config_masksTheChainKey() {
    var r = run(keyed(KEY), "config");
    assertEquals(Cpctl.OK, r.code(), r::describe);
    assertFalse(r.out().contains(KEY) || r.out().contains(KEY.substring(0, 16)), r::describe);
    assertTrue(r.out().lines().anyMatch(l -> l.startsWith("ledger chain") && l.contains("masked")
        && l.contains("HMAC-SHA256")), r::describe);
  }

  // ------------------------------------------------ case 2: delete the last lines together with .head

  @Test
  void lastLinesDeletedWithTheHead_isNamedShorterThanTheHeadRecordedInHot() throws Exception {
    CliHarness.chat(env());
    List<String> ho1 = lines(HO1);
    write(HO1, ho1.subList(0, ho1.size() - 3));
    Files.delete(head(HO1));
    var r = verify(env());
    assertEquals(Cpctl.FAILED, r.code(), r::describe);
    List<String> fail = failLines(r, HO1);
    // Two lines now (issue 20): the .head is missing, and the head recorded in HOT says what is gone.
    assertEquals(2, fail.size(), r::describe);
    assertTrue(fail.stream().anyMatch(l -> l.contains("the .head sidecar is missing although the ledger holds "
        + (ho1.size() - 3) + " entries")), r::describe);
    assertTrue(fail.stream().anyMatch(l -> l.contains(HO1 + " is shorter than its head recorded in HOT at LED-")
        && l.contains("(" + ho1.size() + " entries, hash ") && l.contains("it holds " + (ho1.size() - 3) + " entries")),
        r::describe);

    // The lines are gone for good: repair records the loss, and verify passes again, with the record kept.
    var repair = run(env(), "ledger", "repair", "--tier", "ho1");
    assertEquals(Cpctl.OK, repair.code(), repair::describe);
    assertTrue(repair.out().startsWith("recorded: " + HO1 + " is shorter than its head recorded in HOT"), repair::describe);
    var again = verify(env());
    assertEquals(Cpctl.OK, again.code(), again::describe);
    List<String> now = lines(HO1);
    assertEquals(ho1.size() - 2, now.size());
    assertTrue(now.get(now.size() - 1).contains("\"first_bad_line\":" + (ho1.size() - 2)), now.get(now.size() - 1));
  }

  @Test
  void lastHotLinesDeletedWithTheHead_isNamedByTheHeadRecordedInHo2() throws Exception {
    CliHarness.chat(env());
    List<String> hot = lines(HOT);
    // The turn's last exchange and SESSION_END: the exchange is before HO2's WO_CHAIN_COMPLETE.
    write(HOT, hot.subList(0, hot.size() - 2));
    Files.delete(head(HOT));
    var r = verify(env());
    assertEquals(Cpctl.FAILED, r.code(), r::describe);
    assertTrue(failLines(r, HOT).stream().anyMatch(l -> l.contains("is shorter than its head recorded in HO2/ADMIN")),
        r::describe);
  }

  // ------------------------------------------------ case 3: empty the file and delete .head (or delete both)

  @Test
  void emptiedFileWithTheHeadDeleted_isNamed() throws Exception {
    CliHarness.chat(env());
    write(HO2, List.of());
    Files.delete(head(HO2));
    var r = verify(env());
    assertEquals(Cpctl.FAILED, r.code(), r::describe);
    assertTrue(failLines(r, HO2).stream().anyMatch(l -> l.contains(HO2 + " is shorter than its head recorded in HOT at LED-")
        && l.contains("it holds 0 entries")), r::describe);
  }

  @Test
  void fileDeletedWithItsHead_isNamedMissing() throws Exception {
    CliHarness.chat(env());
    Files.delete(home.resolve(HO1));
    Files.delete(head(HO1));
    var r = verify(env());
    assertEquals(Cpctl.FAILED, r.code(), r::describe);
    assertTrue(r.out().lines().anyMatch(l -> l.startsWith("FAIL") && l.contains(HO1 + " is missing: its head recorded in"
        + " HOT at LED-")), r::describe);
    var repair = run(env(), "ledger", "repair", "--tier", "ho1");
    assertEquals(Cpctl.OK, repair.code(), repair::describe);
    assertTrue(repair.out().startsWith("recorded: " + HO1 + " is missing"), repair::describe);
    assertEquals(Cpctl.OK, verify(env()).code(), () -> verify(env()).describe());
  }

  // ------------------------------------------------ case 4: cut the last acknowledged line in half, .head kept

  @Test
  void lastAcknowledgedLineCutInHalf_isTamperingNotATornWrite() throws Exception {
    CliHarness.chat(env());
    byte[] whole = Files.readAllBytes(home.resolve(HOT));
    String text = new String(whole, StandardCharsets.UTF_8);
    int lastStart = text.lastIndexOf('\n', text.length() - 2) + 1;
    byte[] cut = Arrays.copyOf(whole, lastStart + (whole.length - lastStart) / 2);
    Files.write(home.resolve(HOT), cut);
    long lines = text.lines().count();
    var r = verify(env());
    assertEquals(Cpctl.FAILED, r.code(), r::describe);
    List<String> fail = failLines(r, HOT);
    assertTrue(fail.stream().anyMatch(l -> l.contains("line " + lines + ":") && l.contains("acknowledged by .head (length "
        + lines + " entries, hash ")), r::describe);
    assertTrue(Arrays.equals(cut, Files.readAllBytes(home.resolve(HOT))), "the cut line is not moved aside");
    try (Stream<Path> s = Files.list(home.resolve("HOT/ledger"))) {
      assertFalse(s.anyMatch(p -> p.getFileName().toString().contains(".torn-")), "nothing saved as a torn write");
    }
    var repair = run(env(), "ledger", "repair", "--tier", "hot");
    assertEquals(Cpctl.OK, repair.code(), repair::describe);
    assertTrue(repair.out().startsWith("repaired: " + HOT), repair::describe);
    var repaired = run(env(), "ledger", "query", "--tier", "hot", "--event", "LEDGER_REPAIRED", "--json");
    assertTrue(repaired.out().contains("acknowledged by .head"), repaired::describe);
  }
}
