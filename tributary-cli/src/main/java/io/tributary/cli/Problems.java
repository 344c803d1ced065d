package io.tributary.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;

/**
 * Turns a failure to read or write a file into the one stderr line the commands print for it:
 * {@code tributary COMMAND: FILE: PROBLEM}, without a stack trace.
 */
final class Problems {
  private Problems() {}

  /** Prints the line for {@code problem} with {@code file} to {@code err}; returns the exit status. */
  static int report(PrintWriter err, String command, Path file, IOException problem) {
    err.println("tributary " + command + ": " + file + ": " + describe(file, problem));
    err.flush();
    return ExitCodes.BAD_INPUT;
  }

  /** What went wrong, in words, without the file name the codecs may already have put in front. */
  static String describe(Path file, IOException problem) {
    String text = switch (problem) {
      case NoSuchFileException e -> "no such file or directory" + otherFile(file, e);
      case AccessDeniedException e -> "permission denied" + otherFile(file, e);
      case NotDirectoryException e -> "not a directory" + otherFile(file, e);
      case FileSystemException e when e.getReason() != null -> e.getReason() + otherFile(file, e);
      default -> problem.getMessage() == null ? problem.getClass().getSimpleName() : problem.getMessage();
    };
    String prefix = file + ": ";
    while (text.startsWith(prefix)) {
      text = text.substring(prefix.length());
    }
    // One problem, one line: codec messages may quote input that holds line breaks.
    return text.replaceAll("\\R", " ");
  }

  /** For file-system errors about a path other than the file itself, such as its directory. */
  private static String otherFile(Path file, FileSystemException e) {
    String path = e.getFile();
    return path == null || path.equals(file.toString()) ? "" : " (" + path + ")";
  }
}
