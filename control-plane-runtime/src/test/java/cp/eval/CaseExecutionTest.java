package cp.eval;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Status;
import org.junit.jupiter.api.Test;

/** Which failures of a case's turn are the case's (recorded as its run) and which are the service's (not recorded). */
class CaseExecutionTest {
  @Test
  void anUnreachableService_isNotTheCasesOutcome_aRefusalIs() {
    assertTrue(CaseExecution.serviceUnreachable(new RuntimeException("turn failed",
        Status.UNAVAILABLE.withDescription("io exception").asRuntimeException())));
    assertTrue(CaseExecution.serviceUnreachable(Status.DEADLINE_EXCEEDED.asRuntimeException()));
    assertFalse(CaseExecution.serviceUnreachable(new RuntimeException("turn failed",
        Status.NOT_FOUND.asRuntimeException())));
    assertFalse(CaseExecution.serviceUnreachable(new IllegalStateException("start_refused")));
  }
}
