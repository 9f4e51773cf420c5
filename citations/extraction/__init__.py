"""Text out of documents: reference lists from PDFs and from LaTeX source.

pdf_references reads a PDF's reference section; latex_references reads an arXiv source
package's bibliography, with source_package (reading the package safely) and latex_text
(LaTeX to plain text). paper_files stores what they read as a paper version's reference list
(the ingest_pdf and ingest_source commands, and their bulk jobs).
"""
