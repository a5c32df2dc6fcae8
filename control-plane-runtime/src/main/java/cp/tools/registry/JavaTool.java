package cp.tools.registry;

import cp.tools.spi.ToolBinding;
import java.util.Objects;
import java.util.Optional;

/**
 * A Java tool found on {@code CP_TOOLS_PATH} (or registered in code), with where it came from.
 *
 * @param binding its descriptor and call
 * @param source the jar or class directory, or {@code registered in code}
 */
public record JavaTool(ToolBinding binding, String source) {
  public JavaTool {
    Objects.requireNonNull(binding, "binding");
    Objects.requireNonNull(source, "source");
  }

  public String name() {
    return binding.descriptor().name();
  }

  /** Its registry entry. */
  public RegisteredTool registered() {
    return new RegisteredTool(name(), ExposedNames.of(name()), ToolOrigin.JAVA, source,
        binding.descriptor().description(), Optional.of(binding.descriptor().argumentsSchema()));
  }
}
