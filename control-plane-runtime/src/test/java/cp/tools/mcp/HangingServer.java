package cp.tools.mcp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A stdio "server" that never answers the handshake and does not go quietly: a shell that ignores
 * SIGTERM and has a child ({@code sleep}) that ignores it too, each writing its pid into a file so a
 * test can tell whether anything was left running.
 */
public final class HangingServer {
  static final String SCRIPT = String.join("\n",
      "trap '' TERM",
      "echo $$ > \"$1/$2.pid\"",
      "sleep 300 &",
      "echo $! > \"$1/$2.child\"",
      "wait",
      "");

  private HangingServer() {}

  /** Writes the script into {@code dir}; returns the arguments that run it as the server {@code name}. */
  public static List<String> args(Path dir, String name) {
    Path script = dir.resolve("hanging_server.sh");
    try {
      Files.writeString(script, SCRIPT);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return List.of(script.toString(), dir.toString(), name);
  }

  static McpServerSpec.Stdio spec(Path dir, String name) {
    return new McpServerSpec.Stdio(name, "sh", args(dir, name), Map.of(), dir);
  }

  /** The processes the server {@code name} started (itself, its child) that are still running. */
  public static List<Long> stillRunning(Path dir, String name) {
    List<Long> alive = new ArrayList<>();
    for (String kind : List.of(".pid", ".child")) {
      Path file = dir.resolve(name + kind);
      if (!Files.exists(file)) {
        throw new AssertionError(file + " was never written: the server did not start");
      }
      try {
        long pid = Long.parseLong(Files.readString(file).strip());
        Optional<ProcessHandle> h = ProcessHandle.of(pid);
        if (h.isPresent() && h.get().isAlive() && !zombie(pid)) {
          alive.add(pid);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return alive;
  }

  /** An exited process not yet collected by its parent (PID 1 for a grandchild): not running any more. */
  private static boolean zombie(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
      return stat.substring(stat.lastIndexOf(')') + 1).trim().startsWith("Z");
    } catch (IOException e) {
      return false;
    }
  }

  /** Kills what a failed test left running (so one failure does not leave sleeps behind). */
  public static void cleanUp(Path dir, String name) {
    for (String kind : List.of(".pid", ".child")) {
      try {
        Path file = dir.resolve(name + kind);
        if (Files.exists(file)) {
          ProcessHandle.of(Long.parseLong(Files.readString(file).strip())).ifPresent(ProcessHandle::destroyForcibly);
        }
      } catch (IOException | NumberFormatException e) {
        // nothing to clean
      }
    }
  }
}
