package cp.worker;

import cp.agents.DefinitionSource;
import cp.tools.registry.JavaTool;
import java.util.List;

/**
 * What an embedding application registers in code ({@link ControlPlaneWorker.Builder}): Java
 * tools beside CP_TOOLS_PATH's and agent definitions beside CP_AGENTS_DIR's. Both are checked
 * exactly as the environment's are.
 */
public record PlaneExtensions(List<JavaTool> tools, List<DefinitionSource> definitions) {
  public static final PlaneExtensions NONE = new PlaneExtensions(List.of(), List.of());

  public PlaneExtensions {
    tools = List.copyOf(tools);
    definitions = List.copyOf(definitions);
  }

  public boolean isEmpty() {
    return tools.isEmpty() && definitions.isEmpty();
  }
}
