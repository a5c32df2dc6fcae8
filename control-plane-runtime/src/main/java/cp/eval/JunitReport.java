package cp.eval;

import java.io.StringWriter;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * JUnit XML as CI servers read it (the Ant/Surefire form): one {@code testsuite}, one
 * {@code testcase} per case, a {@code failure} for a case whose expectations failed (its message
 * names them; its text has their details and the reply's diff), an {@code error} for a case whose
 * run failed. Text goes through the JDK's XML writer, which escapes it; characters XML 1.0 cannot
 * hold (control characters, lone surrogates) are replaced by U+FFFD first. Pure.
 */
final class JunitReport {
  /** The testsuite's and each testcase's class name: CI groups the cases under it. */
  static final String SUITE_NAME = "cpctl eval";
  static final String CLASS_NAME = "cpctl.eval";

  private JunitReport() {}

  static String render(List<CaseReport> reports) {
    ReportSummary s = ReportSummary.of(reports);
    long errors = reports.stream().filter(JunitReport::errored).count();
    StringWriter text = new StringWriter();
    try {
      XMLStreamWriter x = XMLOutputFactory.newFactory().createXMLStreamWriter(text);
      x.writeStartDocument("UTF-8", "1.0");
      x.writeCharacters("\n");
      x.writeStartElement("testsuite");
      x.writeAttribute("name", SUITE_NAME);
      x.writeAttribute("tests", String.valueOf(s.cases()));
      x.writeAttribute("failures", String.valueOf(s.failed() - errors));
      x.writeAttribute("errors", String.valueOf(errors));
      x.writeAttribute("skipped", "0");
      x.writeAttribute("time", seconds(s.latencyMs()));
      x.writeCharacters("\n");
      for (CaseReport r : reports) {
        testcase(x, r);
      }
      x.writeEndElement();
      x.writeCharacters("\n");
      x.writeEndDocument();
      x.close();
    } catch (XMLStreamException e) {
      throw new IllegalStateException("JUnit XML could not be written: " + e.getMessage(), e);
    }
    return text.toString();
  }

  private static void testcase(XMLStreamWriter x, CaseReport r) throws XMLStreamException {
    x.writeCharacters("  ");
    x.writeStartElement("testcase");
    x.writeAttribute("name", safe(r.evalCase().id()));
    x.writeAttribute("classname", CLASS_NAME);
    x.writeAttribute("time", seconds(r.run() == null ? 0 : r.run().latencyMs()));
    if (!r.passed()) {
      boolean error = errored(r);
      x.writeCharacters("\n    ");
      x.writeStartElement(error ? "error" : "failure");
      String failed = r.failures().stream().map(ExpectationResult::name).collect(Collectors.joining(", "));
      x.writeAttribute("message", safe(error ? "the run failed: " + (r.run() == null ? "not run" : r.run().error())
          : "failed: " + failed));
      x.writeAttribute("type", error ? "run" : "expectation");
      x.writeCharacters(safe(body(r)));
      x.writeEndElement();
    }
    List<String> notes = EvalReports.toolNotes(r);
    if (r.run() != null || !notes.isEmpty()) {
      x.writeCharacters("\n    ");
      x.writeStartElement("system-out");
      StringBuilder out = new StringBuilder();
      notes.forEach(n -> out.append(n).append('\n'));
      if (r.run() != null) {
        out.append("reply:\n").append(r.run().reply()).append('\n');
      }
      x.writeCharacters(safe(out.toString()));
      x.writeEndElement();
    }
    x.writeCharacters("\n  ");
    x.writeEndElement();
    x.writeCharacters("\n");
  }

  private static boolean errored(CaseReport r) {
    return r.run() == null || r.run().error() != null;
  }

  private static String body(CaseReport r) {
    StringBuilder b = new StringBuilder();
    for (ExpectationResult f : r.failures()) {
      b.append(f.name()).append(": ").append(f.detail()).append('\n');
    }
    if (!r.diff().isEmpty()) {
      b.append('\n').append(r.diff());
    }
    return b.toString();
  }

  private static String seconds(long ms) {
    return String.format(Locale.ROOT, "%.3f", ms / 1000.0);
  }

  /** {@code s} with every character XML 1.0 cannot hold replaced by U+FFFD. */
  static String safe(String s) {
    if (s == null) {
      return "";
    }
    StringBuilder out = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
        out.append(c).append(s.charAt(++i));
      } else if (Character.isSurrogate(c) || (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0xFFFE
          || c == 0xFFFF) {
        out.append('\uFFFD');
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
