package cp.cli;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The addresses the kernel says sockets LISTEN on for a port, read from {@code /proc/net/tcp}
 * and {@code /proc/net/tcp6} (Linux): what a server really bound, whatever it printed.
 */
final class ListeningSockets {
  /** /proc/net/tcp's state column for a listening socket. */
  private static final String LISTEN = "0A";

  private ListeningSockets() {}

  static List<InetAddress> on(int port) throws IOException {
    List<InetAddress> out = new ArrayList<>();
    for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
      Path p = Path.of(table);
      if (!Files.exists(p)) {
        continue;
      }
      List<String> rows = Files.readAllLines(p);
      for (String line : rows.subList(1, rows.size())) {
        String[] f = line.trim().split("\\s+");
        String[] local = f[1].split(":");
        if (LISTEN.equals(f[3]) && Integer.parseInt(local[1], 16) == port) {
          out.add(address(local[0]));
        }
      }
    }
    return out;
  }

  /** The kernel prints an address as 32-bit words in host (little-endian) byte order. */
  private static InetAddress address(String hex) throws IOException {
    byte[] b = new byte[hex.length() / 2];
    for (int word = 0; word < b.length / 4; word++) {
      for (int i = 0; i < 4; i++) {
        int at = word * 8 + (3 - i) * 2;
        b[word * 4 + i] = (byte) Integer.parseInt(hex.substring(at, at + 2), 16);
      }
    }
    return InetAddress.getByAddress(b);
  }
}
