package cp.gateway.offline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import cp.model.Json;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ToolTriggerRulesTest {
  private static String only(String text) {
    List<ToolCall> calls = ToolTriggerRules.match(text);
    assertEquals(1, calls.size(), text + " -> " + calls);
    return calls.get(0).name() + " " + Json.write(calls.get(0).arguments());
  }

  @ParameterizedTest(name = "\"{0}\" -> {1}")
  @CsvSource(delimiter = '|', textBlock = """
      what packages are installed?          | list_packages {}
      list packages                         | list_packages {}
      Which packages do we have             | list_packages {}
      read README.md                        | read_file {"path":"README.md"}
      read README.md.                       | read_file {"path":"README.md"}
      show me the file HOT/x.json           | read_file {"path":"HOT/x.json"}
      please open `HO1/contracts/classify.json` | read_file {"path":"HO1/contracts/classify.json"}
      could you read docs/ now?             | read_file {"path":"docs/"}
      check the gates                       | gate_check {"gate":"all"}
      are all gates passing?                | gate_check {"gate":"all"}
      did gate G0B pass?                    | gate_check {"gate":"G0B"}
      show the last exchanges               | query_ledger {"tier":"hot","event_type":"EXCHANGE","max_entries":5}
      recent exchanges please               | query_ledger {"tier":"hot","event_type":"EXCHANGE","max_entries":5}
      what happened?                        | query_ledger {"tier":"hot","event_type":"EXCHANGE","max_entries":5}
      query the ledger                      | query_ledger {"tier":"hot","event_type":"EXCHANGE","max_entries":5}
      """)
  void phrase_triggersTheRightToolWithTheRightArguments(String text, String expected) {
    assertEquals(expected, only(text));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "hello", "bye", "why is the sky blue?", "read the room", "show me 3.5 reasons",
      "the package arrived", "gates of Argonath", "exchange rates today", "tell me a story"})
  void ordinaryWords_triggerNoTool(String text) {
    assertEquals(List.of(), ToolTriggerRules.match(text));
  }

  @Test
  void severalRequestsInOneUtterance_triggerEachToolInRuleOrder() {
    List<String> names = ToolTriggerRules.match("read README.md, list packages and check the gates")
        .stream().map(ToolCall::name).toList();
    assertEquals(List.of("read_file", "list_packages", "gate_check"), names);
  }
}
