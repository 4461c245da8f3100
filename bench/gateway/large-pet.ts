/**
 * The answer of the benchmark backend's `GET /large/pets/{id}` (backend.ts): a pet as a full
 * record, about 10 KB of JSON, for the output filter benchmark (output-filter-cost.ts).
 */

/** A pet as a full record: about 10 KB of JSON. */
export function largePet(id: number): Record<string, unknown> {
  return {
    id,
    name: `pet-${id}`,
    status: "available",
    category: { id: 3, name: "dogs", description: "Dogs of every breed and size, from shelters and breeders." },
    owner: { id: 41, name: "Ada Lovelace", email: "ada@example.com", phone: "+44 20 7946 0958", city: "London" },
    tags: ["friendly", "vaccinated", "house-trained", "good-with-kids", "chipped"].map((name, i) => ({ id: i, name })),
    photoUrls: Array.from({ length: 8 }, (_, i) => `https://cdn.example.com/pets/${id}/photos/${i}.jpg`),
    visits: Array.from({ length: 40 }, (_, i) => ({
      id: 1000 + i,
      date: `2026-${String((i % 12) + 1).padStart(2, "0")}-${String((i % 28) + 1).padStart(2, "0")}`,
      vet: { id: 7 + (i % 3), name: ["Dr. Who", "Dr. Watson", "Dr. Dolittle"][i % 3] },
      reason: i % 2 === 0 ? "annual check-up" : "vaccination booster",
      notes: "Healthy weight, teeth clean, no sign of parasites; next visit in twelve months.",
      billed: { amount: 45 + i, currency: "EUR" },
    })),
  };
}
