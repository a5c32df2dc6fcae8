package cp.tools.mcp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A small stdio MCP server in Python, written into a test's temp directory, that misbehaves the
 * way real servers do: {@code MODE=banner} prints a line that is not JSON before the handshake,
 * {@code MODE=badschema} lists one tool whose schema is not a JSON Schema, {@code MODE=dupe} lists
 * a tool name twice, {@code MODE=dieonlist} answers the handshake, then writes to stderr and exits
 * with status 5 when its tools are listed. Its tools: {@code echo}; {@code junkreply} prints a non-JSON line before its
 * answer; {@code crash} writes to stderr and exits with status 7.
 */
public final class MisbehavingServer {
  static final String SCRIPT = String.join("\n",
      "import sys, json, os",
      "MODE = os.environ.get('MODE', 'ok')",
      "def out(o):",
      "    sys.stdout.write(json.dumps(o) + '\\n'); sys.stdout.flush()",
      "if MODE == 'banner':",
      "    print('Welcome to the test server!!!  <not json>'); sys.stdout.flush()",
      "TOOLS = [",
      "  {'name': 'echo', 'description': 'Echo', 'inputSchema': {'type': 'object', 'properties': {'m': {'type': 'string'}}}},",
      "  {'name': 'junkreply', 'description': 'Prints junk, then answers', 'inputSchema': {'type': 'object'}},",
      "  {'name': 'crash', 'description': 'Exits', 'inputSchema': {'type': 'object'}},",
      "]",
      "if MODE == 'badschema':",
      "    TOOLS.append({'name': 'bad', 'description': 'bad schema', 'inputSchema': {'type': 'objekt', 'properties': 5}})",
      "if MODE == 'dupe':",
      "    TOOLS.append({'name': 'echo', 'description': 'Echo again', 'inputSchema': {'type': 'object'}})",
      "for line in sys.stdin:",
      "    line = line.strip()",
      "    if not line: continue",
      "    msg = json.loads(line)",
      "    mid = msg.get('id'); meth = msg.get('method')",
      "    if meth == 'initialize':",
      "        out({'jsonrpc': '2.0', 'id': mid, 'result': {'protocolVersion': msg['params']['protocolVersion'],",
      "            'capabilities': {'tools': {}}, 'serverInfo': {'name': 'misbehaving', 'version': '1'}}})",
      "    elif meth == 'tools/list':",
      "        if MODE == 'dieonlist':",
      "            sys.stderr.write('cannot list: the tools database is locked\\n'); sys.stderr.flush(); os._exit(5)",
      "        out({'jsonrpc': '2.0', 'id': mid, 'result': {'tools': TOOLS}})",
      "    elif meth == 'tools/call':",
      "        name = msg['params']['name']",
      "        if name == 'crash':",
      "            sys.stderr.write('crashing now: out of cheese\\n'); sys.stderr.flush(); os._exit(7)",
      "        if name == 'junkreply':",
      "            print('JUNK LINE {not json'); sys.stdout.flush()",
      "        text = 'called %s with %s' % (name, json.dumps(msg['params'].get('arguments') or {}))",
      "        out({'jsonrpc': '2.0', 'id': mid, 'result': {'content': [{'type': 'text', 'text': text}]}})",
      "    elif mid is not None:",
      "        out({'jsonrpc': '2.0', 'id': mid, 'result': {}})",
      "");

  private MisbehavingServer() {}

  /** The server {@code name} in {@code mode}, its script written into {@code dir}. */
  static McpServerSpec.Stdio spec(Path dir, String name, String mode) {
    return new McpServerSpec.Stdio(name, "python3", List.of("-u", script(dir).toString()), Map.of("MODE", mode), dir);
  }

  /**
   * The Python interpreter's own path (not a shim that needs PATH): a worker started with a bare
   * environment still finds it.
   */
  public static String python() {
    try {
      Process p = new ProcessBuilder("python3", "-c", "import sys; print(sys.executable)").redirectErrorStream(true)
          .start();
      String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).strip();
      if (p.waitFor() != 0 || out.isEmpty()) {
        throw new IllegalStateException("these tests need python3 on PATH: " + out);
      }
      return out;
    } catch (IOException e) {
      throw new IllegalStateException("these tests need python3 on PATH: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Writes the server's script into {@code dir}; run it as {@code python3 -u <script>} with MODE set. */
  public static Path script(Path dir) {
    Path script = dir.resolve("misbehaving_server.py");
    try {
      Files.writeString(script, SCRIPT);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return script;
  }
}
