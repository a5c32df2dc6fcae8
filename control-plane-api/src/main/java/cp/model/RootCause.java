package cp.model;

import io.temporal.client.WorkflowException;
import io.temporal.failure.ApplicationFailure;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What a chain of causes comes down to, for messages and failure codes. Pure (no I/O, no clock),
 * so workflow code uses it too. Two questions have two answers each, so there are named methods
 * for each instead of one that guesses:
 *
 * <ul>
 *   <li>the innermost cause ({@link #innermost}, {@link #innermostMessage}): for errors from
 *       outside (a socket, a parser, gRPC), where the wrappers only prefix the real reason;
 *   <li>the innermost {@link ApplicationFailure} ({@link #applicationMessage},
 *       {@link #applicationType}, {@link #failureType}): for failures that crossed Temporal, whose
 *       type is a {@link FailureCode} and whose original message is the one the thrower wrote
 *       (Temporal's wrappers add activity ids and retry states around it).
 * </ul>
 */
public final class RootCause {
  private RootCause() {}

  /** {@code t} and its causes, outermost first (a cause that is its own cause ends the chain). */
  public static Stream<Throwable> chain(Throwable t) {
    return Stream.iterate(t, c -> c != null, c -> c.getCause() == c ? null : c.getCause());
  }

  /** The last cause in the chain (a cause that is its own cause ends it). */
  public static Throwable innermost(Throwable t) {
    return chain(t).reduce((outer, inner) -> inner).orElse(t);
  }

  /** The outermost throwable of {@code type} in the chain, if any. */
  public static <T extends Throwable> Optional<T> first(Throwable t, Class<T> type) {
    return chain(t).filter(type::isInstance).map(type::cast).findFirst();
  }

  /** The innermost throwable of {@code type} in the chain, if any. */
  public static <T extends Throwable> Optional<T> innermost(Throwable t, Class<T> type) {
    return chain(t).filter(type::isInstance).map(type::cast).reduce((outer, inner) -> inner);
  }

  /** The innermost cause's message, or its simple class name when it has none. */
  public static String innermostMessage(Throwable t) {
    Throwable r = innermost(t);
    return r.getMessage() == null ? r.getClass().getSimpleName() : r.getMessage();
  }

  /** The innermost ApplicationFailure's original message, else {@code t}'s own message. */
  public static String applicationMessage(Throwable t) {
    Optional<ApplicationFailure> af = innermostApplicationFailure(t);
    return af.isPresent() ? af.get().getOriginalMessage() : t.getMessage();
  }

  /** The innermost ApplicationFailure's type (a {@link FailureCode}'s wire string, mostly), if any. */
  public static Optional<String> applicationType(Throwable t) {
    return innermostApplicationFailure(t).map(ApplicationFailure::getType);
  }

  /** The innermost ApplicationFailure's type, else {@code t}'s simple class name. */
  public static String failureType(Throwable t) {
    return applicationType(t).orElse(t.getClass().getSimpleName());
  }

  /**
   * What a client reports: the innermost cause's message when {@code t} is not a workflow's
   * failure and that cause is no ApplicationFailure (a refused connection under the SDK's wrapper:
   * the socket's reason is the news); else the innermost ApplicationFailure's original message;
   * else {@code t}'s own message.
   */
  public static String clientMessage(Throwable t) {
    Throwable r = innermost(t);
    if (!(t instanceof WorkflowException) && !(r instanceof ApplicationFailure) && r.getMessage() != null
        && r != t) {
      return r.getMessage();
    }
    return applicationMessage(t);
  }

  private static Optional<ApplicationFailure> innermostApplicationFailure(Throwable t) {
    return innermost(t, ApplicationFailure.class);
  }
}
