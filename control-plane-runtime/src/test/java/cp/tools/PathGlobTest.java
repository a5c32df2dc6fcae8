package cp.tools;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Glob semantics of agent permissions: {@code *} stays in a segment, {@code **} crosses directories. */
class PathGlobTest {

  @Test
  void singleStar_matchesWithinOneDirectoryOnly() {
    PathGlob g = PathGlob.of("HOT/*");
    assertTrue(g.matches("HOT/governance.jsonl"));
    assertFalse(g.matches("HOT/ledger/governance.jsonl"));
    assertFalse(g.matches("HOT"));
  }

  @Test
  void doubleStar_crossesDirectoriesAndMatchesTheDirectoryItself() {
    PathGlob g = PathGlob.of("HOT/**");
    assertTrue(g.matches("HOT/governance.jsonl"));
    assertTrue(g.matches("HOT/ledger/a/b/governance.jsonl"));
    assertTrue(g.matches("HOT"));
    assertFalse(g.matches("HOTTER/x"));
    assertFalse(g.matches("HO1/x"));
  }

  @Test
  void leadingDoubleStarSlash_alsoMatchesAtTheRoot() {
    PathGlob g = PathGlob.of("**/.env");
    assertTrue(g.matches(".env"));
    assertTrue(g.matches("HOT/config/.env"));
    assertFalse(g.matches("HOT/.envrc"));
  }

  @Test
  void middleDoubleStar_matchesZeroOrMoreDirectories() {
    PathGlob g = PathGlob.of("HO2/**/workorder.jsonl");
    assertTrue(g.matches("HO2/workorder.jsonl"));
    assertTrue(g.matches("HO2/ledger/ADMIN/workorder.jsonl"));
    assertFalse(g.matches("HO2/ledger/ADMIN/workorder.jsonl.bak"));
  }

  @Test
  void regexCharacters_areLiteral() {
    PathGlob g = PathGlob.of("README.md");
    assertTrue(g.matches("README.md"));
    assertFalse(g.matches("READMExmd"));
    assertTrue(PathGlob.of("a+(b)/[c]").matches("a+(b)/[c]"));
  }

  @Test
  void questionMark_isOneCharacterOfASegment() {
    PathGlob g = PathGlob.of("HO?/x");
    assertTrue(g.matches("HOT/x"));
    assertFalse(g.matches("HO/x"));
    assertFalse(PathGlob.of("a?b").matches("a/b"));
  }
}
