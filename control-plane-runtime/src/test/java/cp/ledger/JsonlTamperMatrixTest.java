package cp.ledger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import cp.model.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 20 §1 "ledger verify changes the ledger and misses a bad head": 17 ways to tamper with a
 * plane's JSONL files offline (an editor, rm, truncate), each done to a fresh plane holding one
 * two-turn session and checked by the plane's verify ({@link PlaneVerification}) without and with
 * the key. Verify must change nothing on disk in any case. Before issue 20 verify opened every ledger for
 * writing (rewriting the files in 5 of the 17 cases: a garbage tail moved to {@code .torn-*}, a
 * missing or garbage {@code .head} rewritten) and trusted a missing or garbage {@code .head}: it
 * caught 11 of 17 without the key and 12 with it (measured with this test on that code); now 15
 * and 17.
 */
class JsonlTamperMatrixTest {
  @TempDir Path dirs;
  private int planes;

  static final StreamId HOT = PlaneScript.HOT;
  static final StreamId HO1 = PlaneScript.HO1;
  static final StreamId HO2 = PlaneScript.HO2;

  /** A plane's files and how to tamper with them. */
  record Plane(Path root) {
    Path file(StreamId id) {
      return new PlaneLayout(root).ledgerPath(id.tier(), id.agentClass());
    }

    Path head(StreamId id) {
      return LedgerHead.pathFor(file(id));
    }

    List<String> lines(StreamId id) {
      try {
        return new ArrayList<>(Files.readAllLines(file(id), StandardCharsets.UTF_8));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    void write(StreamId id, List<String> lines) {
      write(file(id), lines.isEmpty() ? "" : String.join("\n", lines) + "\n");
    }

    void write(Path p, String text) {
      try {
        Files.writeString(p, text, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    void append(StreamId id, String text) {
      try {
        Files.writeString(file(id), text, StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    void delete(Path p) {
      try {
        Files.delete(p);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    /** A .head that agrees with the file as it is now (what a careful forger without the key writes). */
    void rewriteHead(StreamId id) {
      List<String> l = lines(id);
      String hash = l.isEmpty() ? ChainCodec.GENESIS : Json.parse(l.get(l.size() - 1)).path("hash").asText();
      write(head(id), "{\"entries\":" + l.size() + ",\"last_hash\":\"" + hash + "\"}\n");
    }

    void rehashFrom(StreamId id, int n) {
      List<String> in = lines(id);
      List<String> out = new ArrayList<>(in.subList(0, n - 1));
      String prev = n == 1 ? ChainCodec.GENESIS : Json.parse(in.get(n - 2)).path("hash").asText();
      for (int i = n - 1; i < in.size(); i++) {
        ObjectNode node = (ObjectNode) Json.parse(in.get(i));
        if (i == n - 1) {
          node.put("reason", "forged");
        }
        node.remove("hash");
        node.put("prev_hash", prev);
        prev = ChainCodec.hashOf(node);
        node.put("hash", prev);
        out.add(Json.write(node));
      }
      write(id, out);
    }

    /** Every file under the plane, by path, with its bytes. */
    Map<String, String> snapshot() {
      Map<String, String> out = new TreeMap<>();
      try (Stream<Path> all = Files.walk(root)) {
        for (Path p : all.filter(Files::isRegularFile).toList()) {
          out.put(root.relativize(p).toString(), Arrays.toString(Files.readAllBytes(p)));
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return out;
    }
  }

  static Map<String, java.util.function.Consumer<Plane>> cases() {
    Map<String, java.util.function.Consumer<Plane>> m = new LinkedHashMap<>();
    m.put("edit a line, hash kept", p -> {
      List<String> l = p.lines(HOT);
      l.set(2, l.get(2).replace("\"reason\":\"test", "\"reason\":\"forged"));
      p.write(HOT, l);
    });
    m.put("delete a middle line", p -> {
      List<String> l = p.lines(HOT);
      l.remove(2);
      p.write(HOT, l);
    });
    m.put("delete the last line, .head kept", p -> {
      List<String> l = p.lines(HOT);
      p.write(HOT, l.subList(0, l.size() - 1));
    });
    m.put("delete the last line and the .head", p -> {
      List<String> l = p.lines(HOT);
      p.write(HOT, l.subList(0, l.size() - 1));
      p.delete(p.head(HOT));
    });
    m.put("a garbage tail without a newline", p -> p.append(HO1, "{\"garbage\":"));
    m.put("a .head holding garbage", p -> p.write(p.head(HO1), "not a head at all\n"));
    m.put("the last acknowledged line cut in half", p -> {
      List<String> l = p.lines(HO2);
      String last = l.remove(l.size() - 1);
      p.write(p.file(HO2), String.join("\n", l) + "\n" + last.substring(0, last.length() / 2));
    });
    m.put("a forged line inserted in the middle", p -> {
      List<String> l = p.lines(HOT);
      l.add(3, Json.write(StoreFixture.forged(Json.parse(l.get(2)).path("hash").asText())));
      p.write(HOT, l);
    });
    m.put("two lines swapped", p -> {
      List<String> l = p.lines(HO1);
      String a = l.get(1);
      l.set(1, l.get(2));
      l.set(2, a);
      p.write(HO1, l);
    });
    m.put("HO1 edited and re-hashed from line 2, .head rewritten", p -> {
      p.rehashFrom(HO1, 2);
      p.rewriteHead(HO1);
    });
    m.put("HO1 deleted with its .head", p -> {
      p.delete(p.file(HO1));
      p.delete(p.head(HO1));
    });
    m.put("HO2 emptied, .head deleted", p -> {
      p.write(HO2, List.of());
      p.delete(p.head(HO2));
    });
    m.put("HO1's last 3 lines deleted, .head rewritten", p -> {
      List<String> l = p.lines(HO1);
      p.write(HO1, l.subList(0, l.size() - 3));
      p.rewriteHead(HO1);
    });
    m.put("a garbage line appended", p -> p.append(HO2, "{\"garbage\":true}\n"));
    m.put("the .head emptied", p -> p.write(p.head(HOT), ""));
    m.put("HOT's SESSION_END deleted, .head rewritten", p -> {
      List<String> l = p.lines(HOT);
      p.write(HOT, l.subList(0, l.size() - 1));
      p.rewriteHead(HOT);
    });
    m.put("a forged line appended, .head rewritten", p -> {
      List<String> l = p.lines(HOT);
      l.add(Json.write(StoreFixture.forged(Json.parse(l.get(l.size() - 1)).path("hash").asText())));
      p.write(HOT, l);
      p.rewriteHead(HOT);
    });
    return m;
  }

  private List<String> missed(ChainKey key) {
    List<String> missed = new ArrayList<>();
    for (Map.Entry<String, java.util.function.Consumer<Plane>> c : cases().entrySet()) {
      Plane plane = new Plane(dirs.resolve("plane-" + (++planes)));
      LedgerSettings settings = LedgerSettings.all(Durability.FSYNC_EACH).withKey(key);
      try (JsonlStore store = new JsonlStore(new PlaneLayout(plane.root()), settings)) {
        PlaneScript.session(store, "SES-0000beef", 2);
      }
      c.getValue().accept(plane);
      Map<String, String> before = plane.snapshot();
      try (JsonlStore store = new JsonlStore(new PlaneLayout(plane.root()), settings)) {
        if (PlaneVerification.run(store, List.of()).ok()) {
          missed.add(c.getKey());
        }
      }
      assertEquals(before, plane.snapshot(), "verify changed nothing on disk: " + c.getKey());
    }
    return missed;
  }

  @Test
  void everyOfflineTamperingIsNamed_andVerifyChangesNothing() {
    List<String> plain = missed(null);
    List<String> keyed = missed(PostgresTamperMatrixTest.KEY);
    int n = cases().size();
    System.out.printf("JsonlTamperMatrixTest: caught %d of %d without the key (missed %s), %d with it (missed %s)%n",
        n - plain.size(), n, plain, n - keyed.size(), keyed);
    // Without the key a forger who rewrites a ledger's tail and its .head consistently, after the last head recorded
    // of it elsewhere (HOT's SESSION_END), leaves nothing to tell by; the key's MACs on the lines and the .head do.
    assertEquals(List.of("HOT's SESSION_END deleted, .head rewritten", "a forged line appended, .head rewritten"),
        plain);
    assertTrue(keyed.isEmpty(), keyed.toString());
  }
}
