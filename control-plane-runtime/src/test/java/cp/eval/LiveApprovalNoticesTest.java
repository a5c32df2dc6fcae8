package cp.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;

import cp.model.PendingApproval;
import org.junit.jupiter.api.Test;

/** What {@code eval run --live-tools} says about a case's call waiting for approval, by where its service runs. */
class LiveApprovalNoticesTest {
  static final PendingApproval P = new PendingApproval("APR-1a2b3c4d-0001-02-1-1", "SES-1a2b3c4d", 1,
      "SES-1a2b3c4d/turn-0001", "WO-1a2b3c4d-0001-02", "write_file", "tu-1", "HO2/n.txt (1 bytes, 1 lines)",
      "2026-11-26T23:00:00Z", "2026-11-26T23:04:00Z", 240, "deny", "LED-1");

  @Test
  void onASharedService_itNamesTheCommandThatDecides() {
    assertEquals("c1: write_file waits for approval APR-1a2b3c4d-0001-02-1-1 (--live-tools), until"
        + " 2026-11-26T23:04:00Z, then deny: decide with 'cpctl approve SES-1a2b3c4d APR-1a2b3c4d-0001-02-1-1'"
        + " (add --deny to refuse)", LiveApprovalNotices.line("c1", P, false));
  }

  @Test
  void onTheEmbeddedService_itSaysNobodyCanDecide_andHowToRunWhereSomeoneCan() {
    assertEquals("c1: write_file waits for approval APR-1a2b3c4d-0001-02-1-1 (--live-tools), until"
        + " 2026-11-26T23:04:00Z, then deny; nobody can decide it: this run's Temporal service is embedded in this"
        + " process (set TEMPORAL_ADDRESS to run on a shared service, where 'cpctl approve' reaches it)",
        LiveApprovalNotices.line("c1", P, true));
  }
}
