package cp.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import cp.model.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class EvalReportsTest {
  @TempDir Path dir;
  private final EvalReports reports = new EvalReports();
  private final ExpectationChecker checker = new ExpectationChecker();

  /** A passing case and a failing one whose reply changed (with characters every format must escape). */
  private List<CaseReport> twoCases() {
    EvalSuite suite = SuiteFilesTest.sample();
    EvalCase weather = suite.cases().get(0);
    CaseRun same = new CaseRun(weather.id(), "SES-eval0001", weather.recorded().reply(), null, "success", true, true,
        weather.recorded().tools(), List.of("get_weather"), List.of(), 0.0011, 110, 25, 312, null,
        new JudgeVerdict(true, "it rains", 0.0));
    EvalCase thanks = suite.cases().get(1).withExpect(new Expectations(true, null, List.of(),
        List.of("welcome"), List.of("<script>"), null, null, null, null));
    String changed = "Bye & <script>alert('x')</script> ]]> \u0007 | `code`";
    CaseRun other = new CaseRun(thanks.id(), "SES-eval0002", changed, null, "success", true, true, List.of(),
        List.of(), List.of("write_file"), 0.0005, 40, 12, 205, null, null);
    return List.of(report(weather, same), report(thanks, other));
  }

  private CaseReport report(EvalCase c, CaseRun run) {
    return new CaseReport(c, run, checker.check(c, run),
        ReplyDiff.unified(c.recorded().reply(), run.reply(), "recorded " + c.id(), "run " + run.sessionId()));
  }

  @Test
  void table_showsEachExpectation_costLatency_andTheDiffUnderTheFailingCase() {
    String table = reports.table(twoCases());
    String[] lines = table.split("\n");
    assertTrue(lines[0].startsWith("CASE") && lines[0].contains("EXPECTATIONS") && lines[0].endsWith("LATENCY"), table);
    assertTrue(lines[1].startsWith("SES-1#2  PASS") && lines[1].contains("contains pass") && lines[1].contains("judge pass")
        && lines[1].contains("$0.0011") && lines[1].endsWith("312 ms"), table);
    assertTrue(lines[2].contains("replayed tools: get_weather"), table);
    assertTrue(table.contains("SES-1#3  FAIL") && table.contains("contains FAIL") && table.contains("not_contains FAIL"),
        table);
    assertTrue(table.contains("    tool calls with no recording: write_file"), table);
    assertTrue(table.contains("    contains: not in the reply: \"welcome\""), table);
    assertTrue(table.contains("    --- recorded SES-1#3\n    +++ run SES-eval0002\n"), table);
    assertTrue(table.contains("    -You're welcome\n"), table);
    assertFalse(table.contains("-Rain"), "no diff under a passing case: " + table);
    assertTrue(table.endsWith("2 case(s): 1 passed, 1 failed; cost $0.0016; latency 517 ms\n"), table);
  }

  @Test
  void table_escapesWhatWouldActOnTheTerminal_inIdsNotesAndDiffs() {
    EvalCase weather = SuiteFilesTest.sample().cases().get(0);
    EvalCase odd = new EvalCase("c\nd\u202e", weather.input(), weather.recorded(), weather.cites(), weather.expect());
    CaseRun run = new CaseRun(odd.id(), "SES-eval0003", "new \u001b[31mred", null, "success", true, true, List.of(),
        List.of(), List.of("tool\u202e {}"), null, 1, 1, 5, null, null);
    String table = reports.table(List.of(report(odd, run)));
    assertFalse(table.contains("\u202e") || table.contains("\u001b"), table);
    assertTrue(table.contains("c\\nd\\u202E  FAIL"), table);
    assertTrue(table.contains("tool calls with no recording: tool\\u202E {}"), table);
    assertTrue(table.contains("+new \\u001B[31mred"), table);
  }

  @Test
  void junit_isValidXml_theFailingCaseIsAFailure_withItsExpectationsAndDiff() throws Exception {
    Path file = dir.resolve("junit.xml");
    reports.junit(twoCases(), file);
    Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file.toFile());
    Element suite = doc.getDocumentElement();
    assertEquals("testsuite", suite.getTagName());
    assertEquals("2", suite.getAttribute("tests"));
    assertEquals("1", suite.getAttribute("failures"));
    assertEquals("0", suite.getAttribute("errors"));
    NodeList cases = suite.getElementsByTagName("testcase");
    assertEquals(2, cases.getLength());
    Element pass = (Element) cases.item(0);
    assertEquals("SES-1#2", pass.getAttribute("name"));
    assertEquals("0.312", pass.getAttribute("time"));
    assertEquals(0, pass.getElementsByTagName("failure").getLength());
    Element fail = (Element) cases.item(1);
    assertEquals("SES-1#3", fail.getAttribute("name"));
    Element failure = (Element) fail.getElementsByTagName("failure").item(0);
    assertEquals("failed: contains, not_contains", failure.getAttribute("message"));
    assertTrue(failure.getTextContent().contains("not in the reply: \"welcome\""), failure.getTextContent());
    assertTrue(failure.getTextContent().contains("+Bye & <script>alert('x')</script> ]]> \uFFFD | `code`"),
        "escaped on write, whole on read; the control character replaced: " + failure.getTextContent());
    String out = fail.getElementsByTagName("system-out").item(0).getTextContent();
    assertTrue(out.contains("tool calls with no recording: write_file"), out);
  }

  @Test
  void junit_aRunThatFailed_isAnError() throws Exception {
    EvalCase c = SuiteFilesTest.sample().cases().get(1);
    CaseRun failed = new CaseRun(c.id(), null, "", null, "error", false, false, null, null, null, null, 0, 0, 5,
        "worker lost", null);
    Path file = dir.resolve("e.xml");
    reports.junit(List.of(new CaseReport(c, failed, checker.check(c, failed), "")), file);
    Element suite = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file.toFile()).getDocumentElement();
    assertEquals("1", suite.getAttribute("errors"));
    assertEquals("0", suite.getAttribute("failures"));
    Element error = (Element) suite.getElementsByTagName("error").item(0);
    assertEquals("the run failed: worker lost", error.getAttribute("message"));
  }

  @Test
  void markdown_tableAndFailingSection_withEscapedText() throws Exception {
    Path file = dir.resolve("report.md");
    reports.write(twoCases(), file);
    String md = Files.readString(file);
    assertTrue(md.startsWith("# Eval report\n"), md);
    assertTrue(md.contains("| SES-1\\#2 | PASS |") && md.contains("| SES-1\\#3 | FAIL |"), md);
    assertTrue(md.contains("## SES-1\\#3: FAIL"), md);
    assertTrue(md.contains("- **contains** FAIL: not in the reply: \"welcome\""), md);
    assertTrue(md.contains("```diff\n--- recorded SES-1#3\n"), md);
    assertTrue(md.contains("+Bye & <script>"), "inside the code fence the text is as it is: " + md);
  }

  @Test
  void html_escapesEveryText() throws Exception {
    Path file = dir.resolve("report.html");
    reports.write(twoCases(), file);
    String html = Files.readString(file);
    assertTrue(html.startsWith("<!DOCTYPE html>"), html);
    assertFalse(html.contains("<script>"), "no markup from a reply or an expectation survives: " + html);
    assertTrue(html.contains("+Bye &amp; &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"), html);
    assertTrue(html.contains("<td class=\"FAIL\">FAIL</td>") && html.contains("<td class=\"PASS\">PASS</td>"), html);
    DocumentBuilderFactory.newInstance().newDocumentBuilder()
        .parse(new java.io.ByteArrayInputStream(html.replace("<!DOCTYPE html>", "").replace("\uFFFD", "")
            .replace("\u0007", "").getBytes(java.nio.charset.StandardCharsets.UTF_8)));
  }

  @Test
  void json_parsesBack_withSummaryAndEveryCase() throws Exception {
    Path file = dir.resolve("report.json");
    reports.write(twoCases(), file);
    JsonNode root = Json.parse(Files.readString(file));
    assertEquals(2, root.path("summary").path("cases").asInt());
    assertEquals(1, root.path("summary").path("failed").asInt());
    assertEquals("SES-1#3", root.path("cases").get(1).path("eval_case").path("id").asText());
    assertFalse(root.path("cases").get(1).path("passed").asBoolean());
    assertEquals("contains", root.path("cases").get(1).path("results").get(2).path("name").asText());
    CaseReport back = Json.convert(root.path("cases").get(1), CaseReport.class);
    assertEquals(twoCases().get(1), back);
  }

  @Test
  void aReportOfAnotherKind_isRefusedBeforeWriting() {
    Path file = dir.resolve("report.txt");
    var e = assertThrows(IllegalArgumentException.class, () -> reports.write(twoCases(), file));
    assertTrue(e.getMessage().contains("must end in .html, .md or .json"), e.getMessage());
    assertFalse(Files.exists(file));
  }
}
