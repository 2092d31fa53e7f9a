// Entity extraction from message content (compromise): people, places, organisations, and coined
// names; names are trimmed to their capitalised words.
import { describe, expect, it } from 'vitest';
import { extractEntities } from '../../src/servers/hosted/extract.js';

describe('extractEntities', () => {
  it('finds people, places and organisations, each once', () => {
    expect(extractEntities('Marie Curie won the Nobel Prize in Stockholm while working for the University of Paris. Marie Curie was famous.')).toEqual([
      { name: 'Marie Curie', type: 'person' },
      { name: 'Stockholm', type: 'location' },
      { name: 'University of Paris', type: 'organization' },
    ]);
  });

  it('takes coined names (an inner capital) as concepts, and trims lower-case words from a name', () => {
    expect(extractEntities('Yes, TCKMercury1a2b3c4d has a thin atmosphere.')).toEqual([{ name: 'TCKMercury1a2b3c4d', type: 'concept' }]);
    expect(extractEntities('Where does Alice work?')).toEqual([{ name: 'Alice', type: 'person' }]);
  });

  it('finds nothing in plain lower-case text', () => {
    expect(extractEntities('hello there, how are you today?')).toEqual([]);
  });
});
