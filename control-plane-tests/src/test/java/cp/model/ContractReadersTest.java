package cp.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/**
 * The tolerant readers of the session's inputs (issue 12): nothing a client sends makes them
 * throw; what is wrong is named in {@code problem}; and the fields are read as leniently as before,
 * so a turn or start accepted then replays as it ran.
 */
class ContractReadersTest {
  private static TurnRequest turn(String json) throws Exception {
    return Json.newMapper().readValue(json, TurnRequest.class);
  }

  private static SessionInput start(String json) throws Exception {
    return Json.newMapper().readValue(json, SessionInput.class);
  }

  @Test
  void turnRequest_namesWhatIsWrong_butKeepsTheLenientText() throws Exception {
    assertEquals(new TurnRequest("hi"), turn("{\"text\":\"hi\"}"));
    TurnRequest extra = turn("{\"text\":\"hi\",\"message\":\"x\"}");
    assertEquals("hi", extra.text());
    assertEquals("turn expects {\"text\": string}; got field 'message'", extra.problem().message());
    TurnRequest number = turn("{\"text\":42}");
    assertEquals("42", number.text());
    assertEquals("wrong_type", number.problem().refusal().code());
    assertEquals("turn expects {\"text\": string}; got an array", turn("[1]").problem().message());
    assertEquals("turn expects {\"text\": string}; got a number", turn("7").problem().message());
    assertNull(turn("{}").problem());
    assertNull(turn("{}").text());
  }

  @Test
  void sessionInput_namesWhatIsWrong_andWritesAsBefore() throws Exception {
    SessionInput ok = start("{\"session_id\":\"SES-1a2b3c4d\",\"agent_class\":\"ADMIN\"}");
    assertEquals(new SessionInput("SES-1a2b3c4d", "ADMIN", null, 0), ok);
    assertEquals("{\"session_id\":\"SES-1a2b3c4d\",\"agent_class\":\"ADMIN\",\"continue_as_new_after_turns\":0}",
        Json.newMapper().writeValueAsString(ok), "the problem is never written");
    SessionInput num = start("{\"session_id\":\"SES-1a2b3c4d\",\"agent_class\":42}");
    assertEquals("42", num.agentClass());
    assertEquals("start input: agent_class must be a string; got a number", num.problem().message());
    assertEquals("unknown_field", start("{\"session_id\":\"S\",\"agent\":\"ADMIN\"}").problem().refusal().code());
    assertEquals("carried", start("{\"session_id\":\"S\",\"agent_class\":\"A\",\"carried\":5}").problem().refusal()
        .field());
    assertEquals("start input must be an object {\"session_id\": string, \"agent_class\": string}; got a string",
        start("\"hello\"").problem().message());
  }
}
