package io.levee.rules.engine;

import io.levee.rules.model.Match;

/**
 * One woven method of a {@code method} resource (SPEC §5.2), as the weaver saw it: the resources
 * whose class and method patterns it matched, in file order, with the match each had then. The
 * engine decides a call of it with the first of them still in force with the same match, found once
 * per rule set and remembered here, so a call matches nothing by name.
 *
 * <p>A reload that changes which resources name the method re-weaves it, which gives it new
 * candidates ({@link #retarget}); until then its calls go to what is still in force of the old
 * ones.
 *
 * <p>Concurrency: the candidates and the resolution are each one immutable object behind a volatile
 * field; a call that resolves concurrently with another stores an equal answer.
 */
public final class MethodSite {
  private volatile Candidates candidates;
  private volatile Resolution resolved;

  public MethodSite(String[] resources, Match[] matches) {
    this.candidates = new Candidates(resources, matches);
  }

  /** The resources the method matched when it was woven again. */
  public void retarget(String[] resources, Match[] matches) {
    candidates = new Candidates(resources, matches);
  }

  /** The resource names it was woven for, in file order. */
  public String[] resources() {
    return candidates.resources.clone();
  }

  /** The index in {@code rules} of the resource that decides this method's calls, or -1. */
  int resourceIn(CompiledRules rules) {
    Resolution r = resolved;
    Candidates c = candidates;
    if (r == null || r.rules != rules || r.candidates != c) {
      r = new Resolution(rules, c, c.find(rules));
      resolved = r;
    }
    return r.index;
  }

  private static final class Candidates {
    final String[] resources;
    final Match[] matches;

    Candidates(String[] resources, Match[] matches) {
      this.resources = resources.clone();
      this.matches = matches.clone();
    }

    /** The first resource in force, in file order, that is one of these. */
    int find(CompiledRules rules) {
      for (int i = 0; i < rules.resources.length; i++) {
        ResourceRuntime r = rules.resources[i];
        for (int k = 0; k < resources.length; k++) {
          if (r.name().equals(resources[k]) && r.rule.match.equals(matches[k])) {
            return i;
          }
        }
      }
      return -1;
    }
  }

  /** An answer for one rule set and one set of candidates: a change of either asks again. */
  private static final class Resolution {
    final CompiledRules rules;
    final Candidates candidates;
    final int index;

    Resolution(CompiledRules rules, Candidates candidates, int index) {
      this.rules = rules;
      this.candidates = candidates;
      this.index = index;
    }
  }
}
