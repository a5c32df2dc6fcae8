package cp.faults;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Test code: a fault hook that, the first time a given point is reached, lets the caller set up
 * the fault (a torn write puts half a line on disk) and then stops the calling thread's work by
 * throwing {@link Killed}, the way a SIGKILL there would stop it, in-process: nothing after the
 * point runs, and the bytes on disk stay as they are.
 */
public final class KillAt implements FaultHook {
  /** What "killed here" looks like to the code under test. */
  public static final class Killed extends RuntimeException {
    public Killed(String point) {
      super("killed at " + point + " (test)");
    }
  }

  private final String point;
  private final AtomicBoolean fired = new AtomicBoolean();

  public KillAt(String point) {
    this.point = point;
  }

  @Override
  public void at(String p) {
    if (armed(p)) {
      pause(p);
    }
  }

  @Override
  public boolean armed(String p) {
    return point.equals(p) && fired.compareAndSet(false, true);
  }

  @Override
  public void pause(String p) {
    throw new Killed(p);
  }

  public boolean fired() {
    return fired.get();
  }
}
