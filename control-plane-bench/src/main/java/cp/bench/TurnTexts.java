package cp.bench;

import java.util.List;

/** The user messages of benchmark turns: ordinary questions of a few lines, the same on both sides. */
final class TurnTexts {
  private static final List<String> TEXTS = List.of(
      "What does the quality gate check before an answer reaches me?",
      "Summarise what we talked about so far in two sentences.",
      "How is a work order's token budget enforced between rounds?",
      "Which ledger records the exchanges with the model, and what does each record hold?",
      "Explain the difference between the HO2 supervisor and the HO1 executor.");

  private TurnTexts() {}

  static String text(int turn) {
    return TEXTS.get(Math.floorMod(turn, TEXTS.size())) + " (turn " + turn + ")";
  }
}
