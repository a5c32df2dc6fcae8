package cp.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ReplyDiffTest {
  @Test
  void equalTexts_haveNoDiff() {
    assertEquals("", ReplyDiff.unified("a\nb", "a\nb", "recorded", "run"));
  }

  @Test
  void oneChangedLine_isAHunkWithContext_asDiffUPrintsIt() {
    String before = "16 packages are installed:\n- 2 agents\n- 2 templates\n- 4 contracts\n(offline model)";
    String after = "16 packages are installed:\n- 2 agents\n- 3 templates\n- 4 contracts\n(offline model)";
    assertEquals("""
        --- recorded
        +++ run
        @@ -1,5 +1,5 @@
         16 packages are installed:
         - 2 agents
        -- 2 templates
        +- 3 templates
         - 4 contracts
         (offline model)
        """, ReplyDiff.unified(before, after, "recorded", "run"));
  }

  @Test
  void farApartChanges_areSeparateHunks_withTheirLineNumbers() {
    String a = IntStream.rangeClosed(1, 20).mapToObj(i -> "line " + i).collect(Collectors.joining("\n"));
    String b = a.replace("line 2\n", "line two\n").replace("line 18\n", "").replace("line 20", "line 20\nline 21");
    String diff = ReplyDiff.unified(a, b, "a", "b");
    assertTrue(diff.contains("@@ -1,5 +1,5 @@\n line 1\n-line 2\n+line two\n line 3\n"), diff);
    assertTrue(diff.contains("@@ -15,6 +15,6 @@\n line 15\n line 16\n line 17\n-line 18\n line 19\n line 20\n+line 21\n"),
        diff);
  }

  @Test
  void fromNothing_andToNothing() {
    assertEquals("--- a\n+++ b\n@@ -1 +1 @@\n-\n+hello\n", ReplyDiff.unified("", "hello", "a", "b"));
    assertEquals("--- a\n+++ b\n@@ -1,2 +1 @@\n-x\n-y\n+\n", ReplyDiff.unified("x\ny", null, "a", "b"));
  }

  @Test
  void hugeTexts_fallBackToOneChange_insteadOfAHugeTable() {
    String a = IntStream.range(0, 3000).mapToObj(i -> "a" + i).collect(Collectors.joining("\n"));
    String b = IntStream.range(0, 3000).mapToObj(i -> "b" + i).collect(Collectors.joining("\n"));
    String diff = ReplyDiff.unified(a, b, "a", "b");
    assertTrue(diff.startsWith("--- a\n+++ b\n@@ -1,3000 +1,3000 @@\n-a0\n"), diff.substring(0, 60));
  }
}
