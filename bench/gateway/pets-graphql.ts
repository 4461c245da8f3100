/**
 * The GraphQL contestants' schema: `getPet(petId)` answering the same pet as backend.ts, and the
 * document the importer generates for it (the GraphQL pass-through sends that very document, so
 * the backend does the same work for both).
 */
export const PETS_SDL = `"""A pet of the store."""
type Pet {
  id: Int!
  name: String!
  status: String
}

type Query {
  """One pet by id."""
  getPet(petId: Int!): Pet
}
`;

export const GET_PET_DOCUMENT = "query getPet($petId: Int!) { getPet(petId: $petId) { id name status } }";

/** The pet of `petId`, as backend.ts answers it. */
export function petOfId(petId: number): { id: number; name: string; status: string } {
  return { id: petId, name: `pet-${petId}`, status: "available" };
}
