package cp.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import cp.client.AgentClasses;
import cp.client.ClientException;
import cp.client.ControlPlaneClient;
import cp.contracts.SchemaValidator;
import cp.model.AgentClassInfo;
import cp.model.Json;
import cp.worker.PlaneFixture;
import cp.worker.PlaneRuntime;
import io.temporal.client.WorkflowOptions;
import io.temporal.client.WorkflowStub;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a client learns the agent classes the workers know (issue 22, docs/client-contract.md): the
 * workflow type AgentClasses, started by a foreign client with nothing but the type name and the
 * task queue, answers with built-in and defined classes in the published schema; a session started
 * for a class no worker knows is refused naming those classes.
 */
class AgentClassesContractTest {
  @TempDir Path tmp;

  @Test
  void aForeignClient_listsTheAgentClasses_builtInAndDefined_andAnUnknownOneIsRefusedNamingThem() throws Exception {
    Path agents = Files.createDirectories(tmp.resolve("agents"));
    Files.writeString(agents.resolve("weather.yaml"), "agent_class: WEATHER\ndescription: Tells the weather.\n"
        + "instructions: You tell the weather.\ntools: [read_file]\n");
    Map<String, String> env = PlaneFixture.env(tmp.resolve("home"), Map.of("CP_AGENTS_DIR", agents.toString()));
    try (PlaneFixture plane = PlaneFixture.start(env, PlaneRuntime::builtinTools)) {
      String queue = plane.config.worker().taskQueue();
      WorkflowStub foreign = plane.connection.client().newUntypedWorkflowStub("AgentClasses",
          WorkflowOptions.newBuilder().setTaskQueue(queue).setWorkflowId("agent-classes-test-1").build());
      foreign.start();
      JsonNode answer = foreign.getResult(JsonNode.class);

      try (InputStream in = getClass().getResourceAsStream("/api/schemas/agent_classes.schema.json")) {
        JsonNode schema = Json.MAPPER.readTree(in);
        assertEquals(List.of(), new SchemaValidator().validate(schema, answer), answer::toString);
      }
      assertEquals("WEATHER", answer.get(2).path("agent_class").asText());
      assertEquals("defined", answer.get(2).path("origin").asText());
      assertEquals("Tells the weather.", answer.get(2).path("description").asText());
      assertEquals("[\"read_file\"]", answer.get(2).path("tools").toString());
      assertEquals("built_in", answer.get(0).path("origin").asText());

      List<AgentClassInfo> typed = AgentClasses.ask(plane.connection.client(), queue, Duration.ofSeconds(30));
      assertEquals(List.of("ADMIN", "RESIDENT", "WEATHER"), typed.stream().map(AgentClassInfo::agentClass).toList());

      ControlPlaneClient unchecked = ControlPlaneClient.newBuilder(plane.connection.client()).taskQueue(queue).build();
      String sid = unchecked.startSession("NOPE");
      ClientException e = assertThrows(ClientException.class, () -> unchecked.turn(sid, "hello"));
      assertEquals(ClientException.Kind.REFUSED, e.kind());
      assertTrue(e.getMessage().contains("known: ADMIN, RESIDENT, WEATHER"), e.getMessage());
      assertEquals("success", unchecked.turn(unchecked.startSession("WEATHER"), "hello").outcome());

      String foreignSid = "SES-0000beef";
      WorkflowStub session = plane.connection.client().newUntypedWorkflowStub("SessionWorkflow",
          WorkflowOptions.newBuilder().setTaskQueue(queue).setWorkflowId(foreignSid).build());
      session.start(Map.of("session_id", foreignSid, "agent_class", "WEATHER"));
      JsonNode turn = session.update("turn", JsonNode.class, Map.of("text", "hello"));
      assertEquals("success", turn.path("outcome").asText(), turn::toString);
      assertEquals("WEATHER", session.query("state", JsonNode.class).path("agent_class").asText(),
          "a foreign client starts a defined class exactly like a built-in one");
    }
  }
}
