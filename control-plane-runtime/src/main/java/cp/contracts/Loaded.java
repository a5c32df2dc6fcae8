package cp.contracts;

/** A catalog item together with the file it came from. */
record Loaded<T>(T value, ResourceFile file, String version) {}
