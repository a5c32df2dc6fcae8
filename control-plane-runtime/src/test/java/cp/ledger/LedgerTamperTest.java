package cp.ledger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.model.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 11 item 8 at the level of one ledger: a cut acknowledged line, and the keyed chain. */
class LedgerTamperTest {
  static final ChainKey KEY = ChainKey.of(HexFormat.of().parseHex(
      "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"));
  static final ChainKey OTHER = ChainKey.of(new byte[32]);

  @TempDir Path dir;

  private Path file() {
    return dir.resolve("HO1/ledger/worker.jsonl");
  }

  private Ledger open(ChainKey key) {
    return Ledger.open(file(), LedgerOptions.of(Durability.FSYNC_EACH).withKey(key));
  }

  private void writeN(ChainKey key, int n) {
    try (Ledger l = open(key)) {
      for (int i = 0; i < n; i++) {
        l.write(LedgerTest.entry("EVENT_" + i, "SES-00000001", "WO-" + i));
      }
    }
  }

  private List<String> lines() throws IOException {
    return new ArrayList<>(Files.readAllLines(file(), StandardCharsets.UTF_8));
  }

  private boolean tornFiles() throws IOException {
    try (Stream<Path> s = Files.list(file().getParent())) {
      return s.anyMatch(p -> p.getFileName().toString().contains(".torn-"));
    }
  }

  @Test
  void cutAcknowledgedLine_isReportedAsDamage_appendsRefused_bytesKept_untilRepair() throws IOException {
    writeN(null, 3);
    byte[] whole = Files.readAllBytes(file());
    String text = new String(whole, StandardCharsets.UTF_8);
    int lastStart = text.lastIndexOf('\n', text.length() - 2) + 1;
    byte[] cut = Arrays.copyOf(whole, lastStart + (whole.length - lastStart) / 2);
    Files.write(file(), cut);
    try (Ledger l = open(null)) {
      VerifyResult r = l.verify();
      assertFalse(r.ok(), "a cut acknowledged line is not a torn write");
      assertEquals(3, r.firstBadLine(), r.reason());
      assertTrue(r.reason().contains("acknowledged by .head (length 3 entries, hash "), r.reason());
      assertTrue(l.brokenChain().isPresent());
      LedgerCorruptException e = assertThrows(LedgerCorruptException.class,
          () -> l.write(LedgerTest.entry("AFTER", "S", null)));
      assertTrue(e.getMessage().contains("line 3"), e.getMessage());
      assertArrayEquals(cut, Files.readAllBytes(file()), "nothing cut, nothing appended");
      assertFalse(tornFiles(), "not moved aside as a torn write");
      assertEquals(2, l.readAll().size(), "the intact lines are still readable");

      Path q = l.repairFile().orElseThrow();
      assertArrayEquals(Arrays.copyOfRange(cut, lastStart, cut.length), Files.readAllBytes(q));
      LedgerEntry repaired = l.lastN(1).get(0);
      assertEquals("LEDGER_REPAIRED", repaired.eventType());
      assertTrue(repaired.reason().contains("acknowledged by .head"), repaired.reason());
      assertTrue(l.verify().ok(), l.verify().reason());
      l.write(LedgerTest.entry("AFTER", "S", null));
    }
  }

  @Test
  void cutLineTheHeadDoesNotCount_isStillATornWriteRepairedOnOpen() throws IOException {
    writeN(null, 2);
    byte[] head = Files.readAllBytes(LedgerHead.pathFor(file()));
    writeN(null, 1);
    byte[] whole = Files.readAllBytes(file());
    Files.write(file(), Arrays.copyOf(whole, whole.length - 10));
    Files.write(LedgerHead.pathFor(file()), head);
    try (Ledger l = open(null)) {
      assertTrue(l.verify().ok(), l.verify().reason());
      assertEquals(3, l.size(), "two entries, and what the torn third one held (issue 20)");
      assertEquals("TORN", l.lastN(1).get(0).decision());
      assertTrue(tornFiles());
    }
  }

  @Test
  void keyedChain_writesHmacHashes_thatVerifyOnlyWithTheKey() throws IOException {
    writeN(KEY, 4);
    for (String line : lines()) {
      var n = Json.parse(line);
      assertEquals(ChainKey.ALGORITHM, n.path("chain").asText(), line);
      assertEquals(KEY.id(), n.path("key_id").asText(), line);
      ObjectNode copy = (ObjectNode) n.deepCopy();
      copy.remove("hash");
      assertEquals(KEY.macHex(Json.canonical(copy)), n.path("hash").asText(), "HMAC-SHA256 over the canonical form");
    }
    try (Ledger l = open(KEY)) {
      assertTrue(l.verify().ok(), l.verify().reason());
    }
    try (Ledger l = open(null)) {
      VerifyResult r = l.verify();
      assertEquals(VerifyResult.Kind.NEEDS_KEY, r.kind());
      assertTrue(r.reason().startsWith("keyed chain: set CP_LEDGER_HMAC_KEY to verify"), r.reason());
      LedgerCorruptException e = assertThrows(LedgerCorruptException.class,
          () -> l.write(LedgerTest.entry("X", "S", null)));
      assertTrue(e.getMessage().contains("set CP_LEDGER_HMAC_KEY") && !e.getMessage().contains("corrupt"),
          e.getMessage());
      assertEquals(4, l.readAll().size(), "readable without the key");
      byte[] before = Files.readAllBytes(file());
      LedgerException refused = assertThrows(LedgerException.class, l::repair);
      assertTrue(refused.getMessage().contains("cannot repair") && refused.getMessage().contains("set CP_LEDGER_HMAC_KEY"),
          refused.getMessage());
      assertArrayEquals(before, Files.readAllBytes(file()), "repair without the key moves nothing");
    }
    try (Ledger l = open(OTHER)) {
      assertThrows(LedgerException.class, l::repair);
      VerifyResult r = l.verify();
      assertEquals(VerifyResult.Kind.WRONG_KEY, r.kind());
      assertEquals(1, r.firstBadLine());
      assertTrue(r.reason().contains("wrong key: written with another key (key id " + KEY.id())
          && r.reason().contains(OTHER.id()), r.reason());
    }
  }

  @Test
  void keyedChain_editReHashedWithSha256_failsAtTheEditedLine() throws IOException {
    writeN(KEY, 5);
    List<String> in = lines();
    List<String> out = new ArrayList<>(in.subList(0, 2));
    String prev = Json.parse(in.get(1)).get("hash").asText();
    for (int i = 2; i < in.size(); i++) {
      ObjectNode node = (ObjectNode) Json.parse(in.get(i));
      if (i == 2) {
        node.put("reason", "forged");
      }
      node.remove("hash");
      node.put("prev_hash", prev);
      prev = ChainCodec.hashOf(node);
      node.put("hash", prev);
      out.add(Json.write(node));
    }
    Files.writeString(file(), String.join("\n", out) + "\n");
    Files.writeString(LedgerHead.pathFor(file()), "{\"entries\":5,\"last_hash\":\"" + prev + "\"}\n");
    try (Ledger l = open(KEY)) {
      VerifyResult r = l.verify();
      assertFalse(r.ok());
      assertEquals(3, r.firstBadLine(), r.reason());
      assertTrue(r.reason().contains("hash mismatch"), r.reason());
    }
  }

  @Test
  void unkeyedLedger_isReportedUnderAKey_andAdoptedByTheNextAppendWithAMarker() throws IOException {
    writeN(null, 3);
    try (Ledger l = open(KEY)) {
      VerifyResult r = l.verify();
      assertEquals(VerifyResult.Kind.UNKEYED, r.kind(), r.reason());
      assertTrue(r.reason().contains("not keyed"), r.reason());
      assertTrue(l.repair().isEmpty(), "not keyed yet is not damage: nothing is quarantined");
      assertEquals(3, l.size());
      l.write(LedgerTest.entry("KEYED_NOW", "S", null));
      List<LedgerEntry> all = l.readAll();
      assertEquals(5, all.size());
      LedgerEntry marker = all.get(3);
      assertEquals("LEDGER_KEYED", marker.eventType());
      assertEquals(3, marker.meta("unkeyed_entries").asLong());
      assertEquals(ChainKey.ALGORITHM, marker.chain());
      assertTrue(l.verify().ok(), l.verify().reason());
    }
    // The marker's keyed hash covers the unkeyed lines before it: re-hashing them now fails.
    List<String> in = lines();
    ObjectNode first = (ObjectNode) Json.parse(in.get(0));
    first.put("reason", "forged");
    first.remove("hash");
    first.put("hash", ChainCodec.hashOf(first));
    in.set(0, Json.write(first));
    String prev = first.get("hash").asText();
    for (int i = 1; i < 3; i++) {
      ObjectNode n = (ObjectNode) Json.parse(in.get(i));
      n.remove("hash");
      n.put("prev_hash", prev);
      prev = ChainCodec.hashOf(n);
      n.put("hash", prev);
      in.set(i, Json.write(n));
    }
    Files.writeString(file(), String.join("\n", in) + "\n");
    try (Ledger l = open(KEY)) {
      VerifyResult r = l.verify();
      assertFalse(r.ok());
      assertEquals(4, r.firstBadLine(), "the marker no longer links: " + r.reason());
    }
  }

  @Test
  void chainKey_parsesHexAndBase64_andRefusesShortOrBadKeysWithoutQuotingThem() {
    byte[] raw = new byte[32];
    Arrays.fill(raw, (byte) 7);
    ChainKey hex = ChainKey.parse(HexFormat.of().formatHex(raw));
    ChainKey b64 = ChainKey.parse(" " + Base64.getEncoder().encodeToString(raw) + "\n");
    assertEquals(hex, b64);
    assertEquals(8, hex.id().length());
    assertFalse(hex.toString().contains(HexFormat.of().formatHex(raw)), hex.toString());
    String shortKey = Base64.getEncoder().encodeToString(new byte[16]);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ChainKey.parse(shortKey));
    assertTrue(e.getMessage().startsWith("CP_LEDGER_HMAC_KEY: too short"), e.getMessage());
    assertFalse(e.getMessage().contains(shortKey), e.getMessage());
    IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> ChainKey.parse("secret%%%value"));
    assertTrue(bad.getMessage().startsWith("CP_LEDGER_HMAC_KEY"), bad.getMessage());
    assertFalse(bad.getMessage().contains("secret"), bad.getMessage());
    assertTrue(ChainKey.fromEnv(Map.of()).isEmpty());
    assertEquals(hex, LedgerSettings.fromEnv(Map.of("CP_LEDGER_HMAC_KEY", HexFormat.of().formatHex(raw))).key()
        .orElseThrow());
  }
}
