/** GraphQL schemas for the import's tests: a small store with what real schemas use. */

export const storeSdl = `"""A small store."""
schema {
  query: Query
  mutation: Mutation
}

"""An instant, ISO 8601."""
scalar DateTime @specifiedBy(url: "https://www.rfc-editor.org/rfc/rfc3339")

enum Category {
  BOOKS
  GAMES
  TOYS @deprecated(reason: "Sold as GAMES now.")
}

"""A product filter; combine filters with and/or."""
input ProductFilter {
  category: Category
  maxPrice: Float
  nameContains: String
  and: [ProductFilter!]
  or: [ProductFilter!]
}

input NewProduct {
  name: String!
  price: Float!
  category: Category = BOOKS
  tags: [String!] = []
}

type Review {
  stars: Int!
  text: String
  author: Customer
}

type Customer {
  id: ID!
  name: String!
  favourite: Product
}

"""A thing for sale."""
type Product {
  id: ID!
  name: String!
  price: Float!
  category: Category!
  createdAt: DateTime
  sku: String @deprecated(reason: "Use id.")
  reviews(first: Int = 5): [Review!]!
  related(limit: Int!): [Product!]!
}

type Query {
  """One product by id."""
  product(id: ID!): Product
  """Products matching a filter, most recent first."""
  products(filter: ProductFilter, first: Int = 10, after: String): [Product!]!
  productCount: Int!
  oldSearch(text: String!): [Product!]! @deprecated(reason: "Use products.")
}

type Mutation {
  """Adds a product."""
  addProduct(input: NewProduct!): Product!
  deleteProduct(id: ID!): Boolean!
  product(id: ID!, price: Float!): Product
}
`;

/** Five levels of 40 object fields each, the last of Ints: 40^d fields at depth d, past any budget at depth 5. */
export const deepSdl = `${Array.from({ length: 5 }, (_, level) => {
  const fields = Array.from({ length: 40 }, (_, f) => `  f${f}: ${level < 4 ? `L${level + 1}` : "Int"}`);
  return `type L${level} {\n${fields.join("\n")}\n}`;
}).join("\n")}\ntype Query {\n  root: L0\n}\n`;
