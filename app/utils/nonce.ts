import { createContext, useContext } from 'react'

// The CSP nonce reaches inline scripts through context: set on the server render, empty in the
// browser (which hides nonce attributes from scripts anyway).
const NonceContext = createContext('')
export const NonceProvider = NonceContext.Provider
export const useNonce = () => useContext(NonceContext)
