// Entity types in the two forms. The hosted REST form's type is a free-form string, written
// lower-case ("person", "concept", "planet": the established clients send and compare lower-case);
// the bridge data model has five upper-case types. One rule, used by the reference service (its
// bridge view of REST-made entities) and by the forwarder (the bridge view of a hosted answer):
// a hosted type that names a bridge type (or a common synonym) is that type, any other is OBJECT.
import { ENTITY_TYPES, type EntityType } from '../bridge/index.js';

const SYNONYMS: Readonly<Record<string, EntityType>> = {
  organisation: 'ORGANIZATION',
  org: 'ORGANIZATION',
  place: 'LOCATION',
};

/** The hosted form of a type as given (trimmed, lower-case): "PERSON" -> "person", "Concept" -> "concept". */
export const hostedEntityType = (type: string): string => type.trim().toLowerCase();

/** The bridge type of a hosted type: "person" -> PERSON, "place" -> LOCATION, "concept" -> OBJECT. */
export function bridgeEntityType(type: string): EntityType {
  const upper = type.trim().toUpperCase();
  if ((ENTITY_TYPES as readonly string[]).includes(upper)) return upper as EntityType;
  return SYNONYMS[hostedEntityType(type)] ?? 'OBJECT';
}
