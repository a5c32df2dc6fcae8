package cp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Which charset cpctl writes in for the locale's encoding (see {@link OutputCharset}). */
class OutputCharsetTest {
  @Test
  void theCOrPosixLocale_asciiUnderEitherName_writesUtf8() {
    assertEquals(StandardCharsets.UTF_8, OutputCharset.forLocaleEncoding("ANSI_X3.4-1968"));
    assertEquals(StandardCharsets.UTF_8, OutputCharset.forLocaleEncoding("US-ASCII"));
  }

  @Test
  void anyOtherLocale_keepsItsCharset() {
    assertEquals(StandardCharsets.UTF_8, OutputCharset.forLocaleEncoding("UTF-8"));
    assertEquals(StandardCharsets.ISO_8859_1, OutputCharset.forLocaleEncoding("ISO-8859-1"));
  }

  @Test
  void noEncodingOrOneTheJvmDoesNotKnow_writesUtf8() {
    assertEquals(StandardCharsets.UTF_8, OutputCharset.forLocaleEncoding(null));
    assertEquals(StandardCharsets.UTF_8, OutputCharset.forLocaleEncoding(" "));
    assertEquals(StandardCharsets.UTF_8, OutputCharset.forLocaleEncoding("x-no-such-charset"));
    assertEquals(StandardCharsets.UTF_8, OutputCharset.forLocaleEncoding("not a name!"));
  }
}
