/**
 * The public tool SPI: what a team implements to give its agents a Java tool.
 *
 * <p>A tool is an immutable {@link cp.tools.spi.ToolDescriptor} (name, description, the JSON
 * Schema of its arguments), built once, plus a separate {@link cp.tools.spi.ToolCall} that runs
 * one call. A jar or class directory on {@code CP_TOOLS_PATH} offers its tools through a
 * {@link cp.tools.spi.ToolProvider} listed in
 * {@code META-INF/services/cp.tools.spi.ToolProvider}; the worker finds it with
 * {@link java.util.ServiceLoader} and checks every descriptor when it starts.
 *
 * <p>This package holds no runtime types: a tool jar compiles against {@code control-plane-api}
 * alone (and Jackson's tree model, which the descriptors and arguments use).
 */
package cp.tools.spi;
