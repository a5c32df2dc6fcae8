package cp.gateway.http;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import javax.net.SocketFactory;

/**
 * Plain sockets backed by {@link SocketChannel}s, so that whether the server has closed an idle
 * connection can be seen at once, without blocking.
 *
 * <p>A {@code java.net.Socket} from the default factory can only be asked with a blocking read,
 * and its shortest timeout is 1 ms: that would add a millisecond to every call on a healthy
 * pooled connection (OkHttp itself pays it only for connections idle 10 s or more). A channel
 * can be switched to non-blocking for one read and back. OkHttp uses these sockets as it uses
 * any other (blocking streams, timeouts, TLS on top).
 */
final class ChannelSockets extends SocketFactory {
  @Override
  public Socket createSocket() throws IOException {
    return SocketChannel.open().socket();
  }

  @Override
  public Socket createSocket(String host, int port) throws IOException {
    return connected(new InetSocketAddress(host, port));
  }

  @Override
  public Socket createSocket(String host, int port, InetAddress localHost, int localPort) throws IOException {
    Socket s = createSocket();
    s.bind(new InetSocketAddress(localHost, localPort));
    s.connect(new InetSocketAddress(host, port));
    return s;
  }

  @Override
  public Socket createSocket(InetAddress host, int port) throws IOException {
    return connected(new InetSocketAddress(host, port));
  }

  @Override
  public Socket createSocket(InetAddress address, int port, InetAddress localAddress, int localPort)
      throws IOException {
    Socket s = createSocket();
    s.bind(new InetSocketAddress(localAddress, localPort));
    s.connect(new InetSocketAddress(address, port));
    return s;
  }

  private Socket connected(InetSocketAddress to) throws IOException {
    Socket s = createSocket();
    s.connect(to);
    return s;
  }

  /** What a look at an idle connection found. */
  enum Idle {
    /** Nothing to read: the server has not closed it (as far as anyone can know). */
    OPEN,
    /** The server closed it (end of stream or reset), or sent bytes nobody asked for: unusable. */
    CLOSED_BY_SERVER,
    /** Not a channel socket (TLS, a proxy's socket): it cannot be looked at without blocking. */
    UNKNOWN
  }

  /**
   * Looks, without blocking, at a connection no request is using. Any byte that arrives on an
   * idle HTTP/1.1 connection is either the server's close (end of stream, a reset) or something
   * no response can be built from, so both mean the connection must not carry a request; a read
   * byte is consumed, but such a connection is closed and never used again.
   */
  static Idle look(Socket socket) {
    SocketChannel channel = socket.getChannel();
    if (channel == null) {
      return Idle.UNKNOWN;
    }
    synchronized (channel.blockingLock()) {
      try {
        channel.configureBlocking(false);
        try {
          return channel.read(ByteBuffer.allocate(1)) == 0 ? Idle.OPEN : Idle.CLOSED_BY_SERVER;
        } finally {
          channel.configureBlocking(true);
        }
      } catch (IOException e) {
        return Idle.CLOSED_BY_SERVER;
      }
    }
  }
}
