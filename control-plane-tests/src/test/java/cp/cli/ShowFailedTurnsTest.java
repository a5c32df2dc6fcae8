package cp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import cp.model.Json;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tester's report: {@code cpctl show} printed {@code user: (none)} and {@code reply: (none)}, and
 * its JSON had no input, for a turn whose first work order failed (the turn degraded, or nothing
 * answered), although HO2's WO_PLANNED holds the user's text and chat said "Your message was not
 * lost from the record". The turn's first model call (classify) fails here at the fake provider.
 */
class ShowFailedTurnsTest {
  static final String MESSAGE = "please tell me about the gates";
  static final String DEGRADED_ANSWER = "A degraded answer about the gates.";

  @TempDir Path home;
  private final MockWebServer server = new MockWebServer();
  /** Whether the degraded call answers (else it fails too). */
  private final AtomicBoolean degradedAnswers = new AtomicBoolean();

  @BeforeEach
  void start() throws Exception {
    server.setDispatcher(new Dispatcher() {
      @Override
      public MockResponse dispatch(RecordedRequest request) {
        JsonNode body = Json.parse(request.getBody().utf8());
        if (degradedAnswers.get() && body.path("system").asText("").contains("## Degraded mode")) {
          return new MockResponse.Builder().code(200).setHeader("content-type", "application/json")
              .body("{\"id\":\"msg_d\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"m\",\"content\":["
                  + Json.object().put("type", "text").put("text", DEGRADED_ANSWER) + "],\"stop_reason\":\"end_turn\","
                  + "\"usage\":{\"input_tokens\":40,\"output_tokens\":20}}").build();
        }
        return new MockResponse.Builder().code(500).setHeader("content-type", "application/json")
            .body("{\"type\":\"error\",\"error\":{\"type\":\"api_error\",\"message\":\"down\"}}").build();
      }
    });
    server.start(InetAddress.getLoopbackAddress(), 0);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private Map<String, String> env() {
    Map<String, String> env = CliHarness.env(home);
    env.put("CP_PROVIDER", "anthropic");
    env.put("ANTHROPIC_API_KEY", "sk-ant-test-0123456789");
    env.put("ANTHROPIC_BASE_URL", "http://127.0.0.1:" + server.getPort());
    env.put("CP_LLM_MAX_ATTEMPTS", "1");
    env.put("CP_DEGRADED_MAX_ATTEMPTS", "1");
    return env;
  }

  private String chatOneTurn() {
    var r = CliHarness.runWithInput(env(), MESSAGE + "\n", "chat");
    return CliHarness.endedSession(r);
  }

  @Test
  void aDegradedTurn_showsTheUsersMessageAndTheDegradedReply() {
    degradedAnswers.set(true);
    String sid = chatOneTurn();

    var show = CliHarness.run(env(), "show", sid);
    assertEquals(Cpctl.OK, show.code(), show::describe);
    assertTrue(show.out().contains("[degraded]"), show::describe);
    assertTrue(show.out().contains("  user:  " + MESSAGE + "\n"), show::describe);
    assertTrue(show.out().contains("  reply: " + DEGRADED_ANSWER + "\n"), show::describe);

    var json = CliHarness.run(env(), "show", sid, "--json");
    JsonNode turn = Json.parse(json.out()).path("turns").path(0);
    assertEquals(MESSAGE, turn.path("input").asText(null), json::describe);
    assertEquals(DEGRADED_ANSWER, turn.path("reply").asText(null), json::describe);
  }

  @Test
  void aTurnNothingAnswered_showsTheUsersMessage() {
    String sid = chatOneTurn();

    var show = CliHarness.run(env(), "show", sid);
    assertEquals(Cpctl.OK, show.code(), show::describe);
    assertTrue(show.out().contains("[error]"), show::describe);
    assertTrue(show.out().contains("  user:  " + MESSAGE + "\n"), show::describe);

    var json = CliHarness.run(env(), "show", sid, "--json");
    assertEquals(MESSAGE, Json.parse(json.out()).path("turns").path(0).path("input").asText(null), json::describe);
    System.out.println("ShowFailedTurnsTest: " + show.out());
  }
}
