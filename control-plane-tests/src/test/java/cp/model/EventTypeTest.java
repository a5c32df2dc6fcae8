package cp.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Event types are one enum (issue 13): main code names them through {@link EventType}, never as a
 * string literal of its own, and the wire names (what recorded ledgers and histories hold) stay
 * exactly what they were.
 */
class EventTypeTest {
  /** The wire names ledgers written so far hold; changing one would orphan every recorded entry. */
  private static final List<String> RECORDED_WIRE_NAMES = List.of("EXCHANGE", "PROMPT_REJECTED", "SESSION_START",
      "SESSION_END", "DEGRADATION", "WO_PLANNED", "WO_DISPATCHED", "WO_QUALITY_GATE", "ESCALATION",
      "WO_CHAIN_COMPLETE", "ATTENTION_ASSEMBLED", "WO_EXECUTING", "LLM_CALL", "TOOL_CALL", "WO_COMPLETED",
      "WO_FAILED", "APPROVAL_REQUESTED", "APPROVAL_DECIDED", "MCP_TOOL_LIST", "LEDGER_REPAIRED", "LEDGER_KEYED",
      "FALLBACK");

  @Test
  void everyWireName_roundTrips_andNoneChanged() {
    for (EventType t : EventType.values()) {
      assertEquals(Optional.of(t), EventType.fromWire(t.wire()), t + " round-trips through its wire name");
      assertTrue(t.is(t.wire()));
    }
    assertEquals(RECORDED_WIRE_NAMES, Arrays.stream(EventType.values()).map(EventType::wire).toList());
    assertEquals(Optional.empty(), EventType.fromWire("exchange"), "wire names are case-sensitive");
    assertEquals(Optional.empty(), EventType.fromWire(null));
    assertTrue(!EventType.EXCHANGE.is(null));
  }

  @Test
  void mainCode_spellsNoEventTypeAsAStringLiteral_outsideTheEnum() {
    // A literal that is a wire name, or starts with one and a '/' (an idempotency key built from it).
    StringBuilder names = new StringBuilder();
    for (EventType t : EventType.values()) {
      names.append(names.length() == 0 ? "" : "|").append(t.wire());
    }
    Pattern literal = Pattern.compile("\"(" + names + ")(/[^\"]*)?\"");
    List<String> found = new ArrayList<>();
    for (Path f : SourceScan.mainSources()) {
      if (f.endsWith(Path.of("cp/model/EventType.java"))) {
        continue;
      }
      for (SourceScan.Line l : SourceScan.lines(f)) {
        String code = l.text().strip();
        if (code.startsWith("*") || code.startsWith("/*") || code.startsWith("//")) {
          continue;
        }
        Matcher m = literal.matcher(code);
        if (m.find()) {
          found.add(l.toString());
        }
      }
    }
    assertTrue(found.isEmpty(), "event types spelled as string literals (use cp.model.EventType):\n"
        + String.join("\n", found));
  }
}
