package io.hbasesessions.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The results of one run as Markdown: sections of tables and notes, printed as they come (so a long
 * run shows progress) and written to {@code results.md} at the end.
 */
public final class Report {

    private final StringBuilder markdown = new StringBuilder();

    public void heading(String title) {
        append("\n## " + title + "\n\n");
    }

    public void note(String text) {
        append(text + "\n\n");
    }

    public void table(List<String> columns, List<List<String>> rows) {
        StringBuilder table = new StringBuilder();
        table.append(row(columns));
        table.append(row(columns.stream().map(c -> "---").toList()));
        rows.forEach(r -> table.append(row(r)));
        append(table + "\n");
    }

    public void writeTo(Path file) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, markdown);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write the results to " + file, e);
        }
    }

    /** Rows are built with these, so every table formats numbers alike. */
    public static String number(double value) {
        if (Double.isNaN(value)) {
            return "n/a";
        }
        return value >= 100 ? String.format(Locale.ROOT, "%,.0f", value) : String.format(Locale.ROOT, "%.2f", value);
    }

    /** Whole seconds as such, a fraction only where there is one (a smoke run's 0.5 s warm-up). */
    public static String seconds(Duration duration) {
        return duration.toMillis() % 1_000 == 0 ? Long.toString(duration.toSeconds())
                : String.format(Locale.ROOT, "%.1f", duration.toMillis() / 1_000.0);
    }

    public static String count(long value) {
        return String.format(Locale.ROOT, "%,d", value);
    }

    public static String ratio(double value, double baseline) {
        return baseline > 0 && !Double.isNaN(value) ? String.format(Locale.ROOT, "%.2fx", value / baseline) : "n/a";
    }

    public static List<String> cells(Object... values) {
        List<String> cells = new ArrayList<>();
        for (Object value : values) {
            cells.add(String.valueOf(value));
        }
        return cells;
    }

    private static String row(List<String> cells) {
        return "| " + String.join(" | ", cells) + " |\n";
    }

    private void append(String text) {
        markdown.append(text);
        System.out.print(text);
        System.out.flush();
    }
}
