package cp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import cp.client.ClientException;
import org.junit.jupiter.api.Test;

/**
 * Issue 12: the client library names no command; cpctl adds its own hint to a client failure,
 * on the same line (cpctl's errors are one line).
 */
class CpctlClientHintsTest {
  private static ClientException e(ClientException.Kind kind, String sid) {
    return new ClientException(kind, "what the client said", null, sid, null);
  }

  @Test
  void eachKindGetsCpctlsOwnHint_namingTheSession() {
    assertEquals("what the client said; 'cpctl show SES-1a2b3c4d' reads what its ledgers recorded, 'cpctl session"
        + " start' starts a new session", Cpctl.clientLine(e(ClientException.Kind.NOT_FOUND, "SES-1a2b3c4d")));
    assertEquals("what the client said; 'cpctl show SES-1a2b3c4d' reads what its ledgers recorded",
        Cpctl.clientLine(e(ClientException.Kind.UNAVAILABLE, "SES-1a2b3c4d")));
    assertEquals("what the client said; 'cpctl chat' or 'cpctl session start' starts a new one",
        Cpctl.clientLine(e(ClientException.Kind.ENDED, "SES-1a2b3c4d")));
    assertEquals("what the client said", Cpctl.clientLine(e(ClientException.Kind.REFUSED, "SES-1a2b3c4d")));
    assertEquals("what the client said", Cpctl.clientLine(e(ClientException.Kind.UNAVAILABLE, null)));
  }
}
