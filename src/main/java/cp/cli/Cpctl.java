package cp.cli;

public final class Cpctl {
  public static void main(String[] args) {}
}
