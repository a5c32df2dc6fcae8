package cp.gateway.offline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class OfflineInputTest {
  @Test
  void jsonBetweenTheLastTags_isTheContext() {
    OfflineInput in = OfflineInput.parse("<input>{\"user_input\":\"a\"}</input> then <input>{\"user_input\":\"b\",\"k\":1}</input>");
    assertEquals("b", in.userInput());
    assertEquals(1, in.get("k").asInt());
  }

  @Test
  void missingTags_makeTheWholeTextTheUserInput() {
    assertEquals("what packages are installed?", OfflineInput.parse("  what packages are installed?\n").userInput());
  }

  @Test
  void tagsAroundNonJson_makeTheirContentTheUserInput() {
    assertEquals("read README.md", OfflineInput.parse("Input: <input> read README.md </input>").userInput());
  }

  @Test
  void unclosedTag_fallsBackToTheWholeText() {
    assertEquals("<input>{\"user_input\":\"x\"}", OfflineInput.parse("<input>{\"user_input\":\"x\"}").userInput());
  }
}
