package cp.tools.spi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Objects;

/**
 * One tool as a {@link ToolProvider} offers it: its descriptor and its call.
 *
 * @param descriptor name, description and argument schema, built once
 * @param call what runs a call
 */
public record ToolBinding(ToolDescriptor descriptor, ToolCall call) {
  /** Reads arguments into the record a typed call takes (unknown keys were refused by the schema). */
  private static final ObjectMapper ARGUMENTS = new ObjectMapper()
      .registerModule(new com.fasterxml.jackson.datatype.jdk8.Jdk8Module())
      .registerModule(new com.fasterxml.jackson.datatype.jsr310.JavaTimeModule());

  public ToolBinding {
    Objects.requireNonNull(descriptor, "descriptor");
    Objects.requireNonNull(call, "call");
  }

  /** A typed call on a record of arguments. */
  @FunctionalInterface
  public interface TypedCall<A extends Record> {
    ToolCallResult call(A args, ToolCallContext ctx) throws Exception;
  }

  /**
   * A tool whose arguments are the record {@code arguments}: its schema is derived from the record
   * ({@link ArgumentSchemas#of}) and each call gets the arguments as that record.
   */
  public static <A extends Record> ToolBinding of(String name, String description, Class<A> arguments,
      TypedCall<A> call) {
    Objects.requireNonNull(call, "call");
    ToolDescriptor descriptor = ToolDescriptor.of(name, description, arguments);
    return new ToolBinding(descriptor, (JsonNode args, ToolCallContext ctx) ->
        call.call(ARGUMENTS.treeToValue(args, arguments), ctx));
  }
}
