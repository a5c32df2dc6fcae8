package cp.tools.spi;

import java.util.List;

/**
 * What {@link java.util.ServiceLoader} finds on {@code CP_TOOLS_PATH}: a class with a public
 * no-argument constructor, named in the jar's {@code META-INF/services/cp.tools.spi.ToolProvider},
 * offering one or more tools.
 *
 * <p>{@link #tools()} is called once, when the worker starts; the descriptors are checked then
 * (names, schemas, duplicates across every jar and the built-in tools) and a bad one stops the
 * start naming the jar and the tool.
 */
public interface ToolProvider {
  /** The tools this provider offers, each a descriptor and its call. */
  List<ToolBinding> tools();
}
