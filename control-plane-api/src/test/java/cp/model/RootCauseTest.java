package cp.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.client.WorkflowException;
import io.temporal.failure.ApplicationFailure;
import java.io.IOException;
import java.net.ConnectException;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The one root-cause helper: each method answers what one kind of caller always asked. */
class RootCauseTest {
  private static final ApplicationFailure LEDGER =
      FailureCode.LEDGER_UNWRITABLE.failure("the HOT ledger cannot be written: disk full");

  /** A failure as an activity stub sees it: Temporal's wrapper around the activity's ApplicationFailure. */
  private static RuntimeException crossedTemporal(Throwable inner) {
    return new IllegalStateException("Activity task failed, activityType=Ho1LlmRound", inner);
  }

  @Test
  void innermostIsTheLastCauseAndSurvivesASelfCause() {
    IOException io = new IOException("Connection refused");
    assertSame(io, RootCause.innermost(new RuntimeException("java.io.IOException: Connection refused", io)));
    SelfCaused self = new SelfCaused("loop");
    assertSame(self, RootCause.innermost(self));
  }

  @Test
  void innermostMessageFallsBackToTheClassName() {
    assertEquals("Connection refused",
        RootCause.innermostMessage(new RuntimeException("wrapped", new ConnectException("Connection refused"))));
    assertEquals("NullPointerException",
        RootCause.innermostMessage(new RuntimeException("wrapped", new NullPointerException())));
  }

  @Test
  void applicationMessageIsTheThrowersOwnWords() {
    // getMessage() of an ApplicationFailure adds "message='...', type='...'"; the original is what was thrown.
    RuntimeException f = crossedTemporal(new RuntimeException("outer", LEDGER));
    assertEquals("the HOT ledger cannot be written: disk full", RootCause.applicationMessage(f));
    assertEquals("plain", RootCause.applicationMessage(new IllegalStateException("plain", new IOException("io"))));
  }

  @Test
  void theInnermostApplicationFailureDecidesTheType() {
    ApplicationFailure outer = ApplicationFailure.newBuilder().setType("ho2_failed").setMessage("HO2 failed")
        .setCause(LEDGER).build();
    assertEquals(Optional.of("ledger_unwritable"), RootCause.applicationType(crossedTemporal(outer)));
    assertEquals("ledger_unwritable", RootCause.failureType(crossedTemporal(outer)));
    assertEquals("the HOT ledger cannot be written: disk full", RootCause.applicationMessage(outer));
    assertEquals(Optional.empty(), RootCause.applicationType(new IllegalStateException("x")));
    assertEquals("IllegalStateException", RootCause.failureType(new IllegalStateException("x")));
  }

  @Test
  void aClientReportsTheSocketsReasonUnlessAWorkflowFailed() {
    // Service unreachable: the SDK's wrapper says little, the refused connection says why.
    RuntimeException unreachable = new RuntimeException("UNAVAILABLE: io exception",
        new ConnectException("Connection refused: localhost/127.0.0.1:7233"));
    assertEquals("Connection refused: localhost/127.0.0.1:7233", RootCause.clientMessage(unreachable));
    // An Update refused by the workflow: the refusal's own words.
    RuntimeException refused = new RuntimeException("update failed",
        FailureCode.SESSION_ENDED.failure("session SES-1a2b3c4d has ended"));
    assertEquals("session SES-1a2b3c4d has ended", RootCause.clientMessage(refused));
    // A workflow that failed: its application failure, never a lower non-application leaf.
    ApplicationFailure withLeaf = ApplicationFailure.newBuilder().setType("config_error").setMessage("no agent")
        .setCause(new IOException("leaf")).build();
    WorkflowException failed = new WorkflowException(WorkflowExecution.getDefaultInstance(), "SessionWorkflow",
        withLeaf) {};
    assertEquals("no agent", RootCause.clientMessage(failed));
    assertEquals("leaf", RootCause.clientMessage(new RuntimeException("update failed", withLeaf)));
    assertEquals("alone", RootCause.clientMessage(new IllegalStateException("alone")));
  }

  private static final class SelfCaused extends RuntimeException {
    private static final long serialVersionUID = 1L;

    SelfCaused(String message) {
      super(message);
    }

    @Override
    public synchronized Throwable getCause() {
      return this;
    }
  }

  @Test
  void chainWalksEveryCauseOnceAndStopsAtASelfCause() {
    IOException io = new IOException("refused");
    RuntimeException outer = new RuntimeException("outer", new IllegalStateException("mid", io));
    assertEquals(java.util.List.of("outer", "mid", "refused"), RootCause.chain(outer).map(Throwable::getMessage).toList());
    assertEquals(1, RootCause.chain(new SelfCaused("loop")).count());
  }

  @Test
  void firstAndInnermostOfATypeFindTheOutermostAndTheInnermostMatch() {
    ApplicationFailure inner = ApplicationFailure.newFailure("inner", "a");
    ApplicationFailure outer = ApplicationFailure.newBuilder().setMessage("outer").setType("b").setCause(inner).build();
    RuntimeException wrapped = crossedTemporal(outer);
    assertSame(outer, RootCause.first(wrapped, ApplicationFailure.class).orElseThrow());
    assertSame(inner, RootCause.innermost(wrapped, ApplicationFailure.class).orElseThrow());
    assertEquals(Optional.empty(), RootCause.first(wrapped, IOException.class));
  }

  /**
   * The one root-cause helper: no other main source walks a cause chain itself (a loop over
   * {@code getCause()}); each such copy answered one of RootCause's questions slightly differently
   * (some without the self-cause guard).
   */
  @Test
  void noMainSourceWalksACauseChainButRootCause() {
    java.util.regex.Pattern loop = java.util.regex.Pattern.compile(
        "(for|while)\\s*\\(.*getCause\\(\\)|\\b(\\w+)\\s*=\\s*\\2\\.getCause\\(\\)");
    java.util.List<String> found = new java.util.ArrayList<>();
    for (var file : SourceScan.mainSources()) {
      if (file.toString().replace('\\', '/').endsWith("/cp/model/RootCause.java")) {
        continue;
      }
      for (SourceScan.Line line : SourceScan.lines(file)) {
        if (loop.matcher(line.text()).find()) {
          found.add(line.toString());
        }
      }
    }
    assertEquals(java.util.List.of(), found, "use cp.model.RootCause");
  }
}
