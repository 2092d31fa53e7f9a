// Entity extraction from message content (compromise): what it finds, and what it leaves out.
import { describe, expect, it } from 'vitest';
import { EXTRACT_MAX_CHARS, extractEntities } from '../../src/servers/hosted/extract.js';

describe('extractEntities', () => {
  it('finds people, places and organisations, and other names as concepts', () => {
    expect(extractEntities('Marie Curie won the Nobel Prize in Paris while working at the University of Paris.')).toEqual([
      { name: 'Marie Curie', type: 'person' },
      { name: 'Paris', type: 'location' },
      { name: 'University of Paris', type: 'organization' },
      { name: 'Nobel Prize', type: 'concept' },
    ]);
    expect(extractEntities('I flew to Tokyo and ate at Tsukiji market with John Smith from Microsoft.')).toEqual([
      { name: 'John Smith', type: 'person' },
      { name: 'Tokyo', type: 'location' },
      { name: 'Microsoft', type: 'organization' },
      { name: 'Tsukiji', type: 'concept' },
    ]);
  });

  it('names each entity once, however often the text repeats it', () => {
    expect(extractEntities('Marie Curie won the Nobel Prize in Stockholm while working for the University of Paris. Marie Curie was famous.')).toEqual([
      { name: 'Marie Curie', type: 'person' },
      { name: 'Stockholm', type: 'location' },
      { name: 'University of Paris', type: 'organization' },
      { name: 'Nobel Prize', type: 'concept' },
    ]);
  });

  it('finds identifier-like names the tagger calls plain nouns (the official clients\' e2e probe)', () => {
    expect(extractEntities('TCKMercury1a2b3c4d is the smallest planet in the solar system.')).toEqual([{ name: 'TCKMercury1a2b3c4d', type: 'concept' }]);
    expect(extractEntities('Yes, TCKMercury1a2b3c4d has a thin atmosphere.')).toEqual([{ name: 'TCKMercury1a2b3c4d', type: 'concept' }]);
  });

  it('keeps names clean: no brackets, punctuation or lower-case words at the ends', () => {
    expect(extractEntities('Carol met Bob (tck-m-9f8e7d6c)')).toEqual([{ name: 'Carol', type: 'person' }, { name: 'Bob', type: 'person' }]);
    expect(extractEntities('Where does Alice work?')).toEqual([{ name: 'Alice', type: 'person' }]);
  });

  it('reads the first EXTRACT_MAX_CHARS characters of a message only', () => {
    const filler = 'the weather was mild and nothing happened. '.repeat(Math.ceil(EXTRACT_MAX_CHARS / 43));
    expect(extractEntities(`Grace Hopper spoke. ${filler}`)).toEqual([{ name: 'Grace Hopper', type: 'person' }]);
    expect(extractEntities(`${filler} Grace Hopper spoke.`)).toEqual([]);
  });

  it('finds nothing in text without names', () => {
    expect(extractEntities('hello, how are you? 42 is the answer')).toEqual([]);
    expect(extractEntities('hello there, how are you today?')).toEqual([]);
    expect(extractEntities('context-probe-message')).toEqual([]);
    expect(extractEntities('')).toEqual([]);
  });
});
