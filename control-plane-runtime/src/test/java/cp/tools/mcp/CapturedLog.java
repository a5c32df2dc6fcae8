package cp.tools.mcp;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.LoggerFactory;

/** What some classes log during each test ({@code @RegisterExtension}): the MCP client's lines to the operator. */
public final class CapturedLog implements BeforeEachCallback, AfterEachCallback {
  private final List<Logger> loggers;
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

  private CapturedLog(List<Logger> loggers) {
    this.loggers = loggers;
  }

  /** The log of {@code classes}' loggers. */
  public static CapturedLog of(Class<?>... classes) {
    return named(Arrays.stream(classes).map(Class::getName).toArray(String[]::new));
  }

  /** The log of the loggers {@code names}, each with the loggers below it ({@code io.modelcontextprotocol}: the SDK's). */
  public static CapturedLog named(String... names) {
    return new CapturedLog(Arrays.stream(names).map(n -> (Logger) LoggerFactory.getLogger(n)).toList());
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    appender.list.clear();
    appender.start();
    loggers.forEach(l -> l.addAppender(appender));
  }

  @Override
  public void afterEach(ExtensionContext context) {
    loggers.forEach(l -> l.detachAppender(appender));
  }

  /** The events at WARN or above, in order. */
  public List<ILoggingEvent> warningEvents() {
    return appender.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN)).toList();
  }

  /** The messages at WARN or above, in order. */
  public List<String> warnings() {
    return warningEvents().stream().map(ILoggingEvent::getFormattedMessage).toList();
  }
}
