package cp.client;

import java.util.HexFormat;
import java.util.Random;

/** New session ids: {@code SES-} and 8 hex digits (cp.model.WorkOrderIds.SESSION_ID). */
public final class SessionIds {
  private SessionIds() {}

  /** A fresh session id from 4 bytes of {@code random}. */
  public static String mint(Random random) {
    byte[] b = new byte[4];
    random.nextBytes(b);
    return "SES-" + HexFormat.of().formatHex(b);
  }
}
