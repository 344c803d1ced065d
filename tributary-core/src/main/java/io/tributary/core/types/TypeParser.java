package io.tributary.core.types;

import io.tributary.tensor.DType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** A recursive-descent parser for the compact notation; one instance parses one string. */
final class TypeParser {
  /** Deeper nesting than this is rejected rather than risking the stack. */
  private static final int MAX_DEPTH = 256;

  private final String text;
  private final Placements placements;
  private int pos;
  private int depth;

  TypeParser(String text, Placements placements) {
    this.text = text;
    this.placements = placements;
  }

  Type parseAll() {
    Type t = parseType();
    skipSpace();
    if (pos < text.length()) {
      throw error(pos, "unexpected '" + text.charAt(pos) + "' after the type");
    }
    return t;
  }

  private Type parseType() {
    if (++depth > MAX_DEPTH) {
      throw error(pos, "types nested deeper than " + MAX_DEPTH + " levels");
    }
    skipSpace();
    Type t = parsePrimary();
    while (true) {
      skipSpace();
      int operator = pos;
      if (peek('*')) {
        pos++;
        Type element = t;
        t = build(operator, () -> new SequenceType(element));
      } else if (peek('@')) {
        pos++;
        Placement p = parsePlacement();
        Type member = t;
        t = build(operator, () -> new FederatedType(member, p, true));
      } else {
        break;
      }
    }
    depth--;
    return t;
  }

  private Type parsePrimary() {
    skipSpace();
    if (pos >= text.length()) {
      throw error(pos, "expected a type but the text ended");
    }
    int start = pos;
    char c = text.charAt(pos);
    if (c == '<') {
      pos++;
      return parseStructRest(start);
    }
    if (c == '(') {
      pos++;
      return parseFunctionRest(start);
    }
    if (c == '{') {
      pos++;
      Type member = parseType();
      expect('}', "to close '{' opened at column " + (start + 1));
      skipSpace();
      if (!peek('@')) {
        throw error(pos, "expected '@' and a placement after {...}");
      }
      pos++;
      Placement p = parsePlacement();
      return build(start, () -> new FederatedType(member, p, false));
    }
    if (isIdentStart(c)) {
      String word = identifier();
      if (word.equals("placement")) {
        return new PlacementType();
      }
      Optional<DType> dtype = dtypeNamed(word);
      if (dtype.isPresent()) {
        return parseShape(dtype.get());
      }
      if (!Character.isUpperCase(word.charAt(0))) {
        throw error(start, "unknown dtype '" + word + "' (type variables start with an upper-case"
            + " letter)");
      }
      return build(start, () -> new AbstractType(word));
    }
    throw error(pos, "expected a type but found '" + c + "'");
  }

  private Type parseStructRest(int start) {
    List<StructType.Element> elements = new ArrayList<>();
    skipSpace();
    if (peek('>')) {
      pos++;
      return new StructType(elements);
    }
    while (true) {
      skipSpace();
      Optional<String> name = Optional.empty();
      int save = pos;
      if (pos < text.length() && isIdentStart(text.charAt(pos))) {
        String word = identifier();
        skipSpace();
        if (peek('=')) {
          pos++;
          name = Optional.of(word);
        } else {
          pos = save;
        }
      }
      Type t = parseType();
      Optional<String> n = name;
      for (StructType.Element e : elements) {
        if (n.isPresent() && e.name().equals(n)) {
          throw error(save, "duplicate element name '" + n.get() + "'");
        }
      }
      elements.add(new StructType.Element(n, t));
      skipSpace();
      if (peek(',')) {
        pos++;
        continue;
      }
      if (peek('>')) {
        pos++;
        return new StructType(elements);
      }
      throw error(pos, "expected ',' or '>' in the struct opened at column " + (start + 1));
    }
  }

  private Type parseFunctionRest(int start) {
    skipSpace();
    Optional<Type> parameter = Optional.empty();
    if (!text.startsWith("->", pos)) {
      parameter = Optional.of(parseType());
      skipSpace();
    }
    if (!text.startsWith("->", pos)) {
      throw error(pos, "expected '->' in the function type opened at column " + (start + 1));
    }
    pos += 2;
    Type result = parseType();
    expect(')', "to close the function type opened at column " + (start + 1));
    return new FunctionType(parameter, result);
  }

  private Type parseShape(DType dtype) {
    int afterName = pos;
    skipSpace();
    if (!peek('[')) {
      pos = afterName;
      return TensorType.of(dtype);
    }
    int open = pos;
    pos++;
    skipSpace();
    if (text.startsWith("...", pos)) {
      pos += 3;
      expect(']', "after '...' (unknown rank)");
      return TensorType.unknownRank(dtype);
    }
    List<Long> dims = new ArrayList<>();
    if (peek(']')) {
      pos++;
      return TensorType.of(dtype);
    }
    while (true) {
      skipSpace();
      if (peek('?')) {
        pos++;
        dims.add(TensorType.UNKNOWN_DIM);
      } else if (pos < text.length() && Character.isDigit(text.charAt(pos))) {
        dims.add(number());
      } else {
        throw error(pos, "expected a dimension (a size, '?' or '...')");
      }
      skipSpace();
      if (peek(',')) {
        pos++;
      } else if (peek(']')) {
        pos++;
        return new TensorType(dtype, dims, false);
      } else {
        throw error(pos, "expected ',' or ']' in the shape opened at column " + (open + 1));
      }
    }
  }

  private long number() {
    int start = pos;
    long value = 0;
    while (pos < text.length() && Character.isDigit(text.charAt(pos))) {
      int digit = text.charAt(pos) - '0';
      if (value > (Long.MAX_VALUE - digit) / 10) {
        throw error(start, "dimension too large");
      }
      value = value * 10 + digit;
      pos++;
    }
    return value;
  }

  private Placement parsePlacement() {
    skipSpace();
    int start = pos;
    if (pos >= text.length() || !isIdentStart(text.charAt(pos))) {
      throw error(pos, "expected a placement (" + placements.labels() + ") after '@'");
    }
    String label = identifier();
    return placements
        .byLabel(label)
        .orElseThrow(
            () ->
                error(start, "unknown placement '" + label + "'; known: " + placements.labels()));
  }

  private interface Builder {
    Type build();
  }

  /** Runs a constructor, turning a broken rule into a parse error at the construct's start. */
  private Type build(int start, Builder builder) {
    try {
      return builder.build();
    } catch (IllegalArgumentException e) {
      throw error(start, e.getMessage());
    }
  }

  private static Optional<DType> dtypeNamed(String word) {
    for (DType d : DType.values()) {
      if (d.typeName().equals(word)) {
        return Optional.of(d);
      }
    }
    return Optional.empty();
  }

  private String identifier() {
    int start = pos;
    while (pos < text.length()
        && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '_')) {
      pos++;
    }
    return text.substring(start, pos);
  }

  private static boolean isIdentStart(char c) {
    return Character.isLetter(c) || c == '_';
  }

  private void expect(char c, String why) {
    skipSpace();
    if (!peek(c)) {
      String found = pos < text.length() ? "'" + text.charAt(pos) + "'" : "the end";
      throw error(pos, "expected '" + c + "' " + why + " but found " + found);
    }
    pos++;
  }

  private boolean peek(char c) {
    return pos < text.length() && text.charAt(pos) == c;
  }

  private void skipSpace() {
    while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
      pos++;
    }
  }

  private TypeParseException error(int column, String reason) {
    return new TypeParseException(text, column, reason);
  }
}
